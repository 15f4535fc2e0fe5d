import DeepLinkCore
import DeepLinkHarness
import DeepLinkLinks

/// `referrer-verify` ("verify vs parse"): a signed `/wallet` referrer parsed, validated and its
/// signature checked (``SignedLinkVerifier``, HMAC-SHA256 through OpenSSL) against the same
/// referrers only parsed and validated: the speedup (below 1) is what verification costs on the
/// referrer path. A zero-allocation row: OpenSSL's HMAC included (``HMACSHA256Authenticator``).
enum SigningComparisons {
    static func all(corpusSize: Int) -> [Comparison] {
        let builder = LinkBuilder(validator: ExampleApp.validator)
        let corpus: [[UInt8]] = (0..<max(1, min(corpusSize, 256))).map { index in
            do {
                let link = try builder.canonicalLink("/wallet/transfer?to=\(index)&amount=\(index * 7 % 1_000)")
                let signed = try builder.signed(
                    link,
                    authenticator: ExampleApp.signingKeys,
                    expiresAtSeconds: 4_102_444_800,
                    nonce: UInt64(index) &* 0x9E37_79B9_7F4A_7C15
                )
                return Array(try builder.referrer(for: signed, attribution: [(.utmSource, "partner")]).utf8)
            } catch {
                preconditionFailure("the benchmark's links are valid: \(error)")
            }
        }
        let inputs = ContiguousCorpus(corpus)
        let parser = ReferrerParser()
        let validator = ExampleApp.validator
        let verifier = ExampleApp.signing
        func side(_ name: String, verify: Bool) -> BenchmarkSide {
            BenchmarkSide(name) { operations in
                var link = DeepLink(validated: "/")!
                var accepted = 0
                let bytes = inputs.withInputs { inputs in
                    measuringAllocations(operations, cycling: inputs.ranges.count) { index in
                        guard parser.verdict(for: inputs[index], validator: validator, into: &link) == .link else {
                            return
                        }
                        if !verify {
                            accepted &+= link.utf8Count
                        } else if case .verified = verifier.check(link, nowSeconds: 1_000) {
                            accepted &+= link.utf8Count
                        }
                    }
                }
                blackHole(accepted)
                return bytes
            }
        }
        return [
            Comparison(
                benchmark: "referrer-verify",
                subject: side("parse + validate + verify", verify: true),
                peer: side("parse + validate", verify: false)
            )
        ]
    }
}
