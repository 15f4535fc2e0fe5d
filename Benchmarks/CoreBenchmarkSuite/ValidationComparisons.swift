import DeepLinkCore
import DeepLinkHarness
import Foundation

/// `link-validate`: ``LinkValidator`` against a validator built on Foundation's `URL(string:)` that
/// applies the same rules, over the same decoded payloads.
enum ValidationComparisons {
    static let allowedHosts = ["nerdy.pro", "www.nerdy.pro"]

    /// Decoded payloads as a referrer would carry them: mostly valid paths and allowlisted https
    /// URLs, with the usual hostile share.
    static func corpus(count: Int, seed: UInt64 = 0x11A7) -> [String] {
        var random = SplitMix64(seed: seed)
        let hostile = [
            "//evil.example/login", "https://evil.example/product/1", "javascript:alert(1)", "http://nerdy.pro/a",
            "/product/../admin", "/a/%2e%2e/b", "product/42", "intent://scan#Intent;end", "/a\\b",
        ]
        return (0..<count).map { _ in
            let roll = random.next() % 10
            let id = String(random.next() % 100_000)
            switch roll {
            case 0: return hostile[Int(random.next() % UInt64(hostile.count))]
            case 1, 2: return "https://nerdy.pro/product/\(id)?ref=share"
            case 3: return "/orders/\(id)"
            case 4: return "/invite/\(id)?from=friend&campaign=spring"
            default: return "/product/\(id)" + (random.next() % 2 == 0 ? "?ref=share" : "")
            }
        }
    }

    static func all(corpusSize: Int) -> [Comparison] {
        let corpus = corpus(count: corpusSize)
        let inputs = ContiguousCorpus(corpus.map { Array($0.utf8) })
        let validator = LinkValidator(configuration: .init(allowedHosts: allowedHosts))
        let peer = FoundationLinkValidator(allowedHosts: allowedHosts)
        return [
            Comparison(
                benchmark: "link-validate",
                subject: BenchmarkSide("LinkValidator") { operations in
                    var accepted = 0
                    let bytes = inputs.withInputs { inputs in
                        measuringAllocations(operations, cycling: inputs.ranges.count) { index in
                            if case .success(let link) = validator.validate(inputs[index]) {
                                accepted &+= link.utf8Count
                            }
                        }
                    }
                    blackHole(accepted)
                    return bytes
                },
                peer: BenchmarkSide("URL(string:) validator") { operations in
                    var accepted = 0
                    let bytes = measuringAllocations(operations, cycling: corpus.count) { index in
                        if let link = peer.validate(corpus[index]) { accepted &+= link.utf8.count }
                    }
                    blackHole(accepted)
                    return bytes
                }
            )
        ]
    }
}

/// The validator a team would write with Foundation: the same accept/reject rules as
/// ``LinkValidator``, expressed with `URL(string:)` and `String` operations. Returns the canonical
/// link (path and query) or nil for a rejection.
struct FoundationLinkValidator: Sendable {
    let allowedHosts: Set<String>

    init(allowedHosts: [String]) { self.allowedHosts = Set(allowedHosts.map { $0.lowercased() }) }

    func validate(_ payload: String) -> String? {
        guard !payload.isEmpty, payload.utf8.count <= DeepLink.capacity else { return nil }
        guard !payload.contains("\\"), !payload.lowercased().contains("%5c") else { return nil }
        guard !payload.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else {
            return nil
        }
        guard let url = URL(string: payload) else { return nil }
        if let scheme = url.scheme {
            guard scheme.lowercased() == "https", let host = url.host?.lowercased(), allowedHosts.contains(host) else {
                return nil
            }
        } else {
            guard payload.hasPrefix("/"), !payload.hasPrefix("//") else { return nil }
        }
        let path = url.path.isEmpty ? "/" : url.path
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !segments.contains(where: { $0 == "." || $0 == ".." }) else { return nil }
        guard let encodedPath = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath,
            !encodedPath.lowercased().contains("%2e%2e")
        else { return nil }
        if let query = url.query { return encodedPath + "?" + query }
        return encodedPath
    }
}
