import DeepLinkCore
import DeepLinkCoreTestSupport
import Testing

/// Referrers as Play delivers them: campaigns, escapes, placeholders, double encoding, bare tokens,
/// junk.
let realisticReferrerCorpus: [[UInt8]] = [
    "utm_source=google&utm_medium=cpc&utm_campaign=spring_sale&deeplink=%2Fproduct%2F42",
    "utm_source=facebook&utm_medium=social&utm_content=carousel+ad+3&deeplink=%2Fproduct%2F42%3Fref%3Dshare",
    "gclid=Cj0KCQiA4NWrBhD-ARIsAFCKwWt&utm_source=google&utm_medium=cpc&deeplink=/offers/winter",
    "utm_source=google-play&utm_medium=organic",
    "utm_source=(not%20set)&utm_medium=(not%20set)",
    "utm_source%3Dnewsletter%26utm_medium%3Demail%26deeplink%3D%252Fcart%253Fcoupon%253DSAVE10",
    "1234567",
    "",
    "&&&",
    "deeplink=%2F..%2Fadmin&utm_source=evil",
    "deeplink=javascript%3Aalert(1)",
    "utm_term=caf%C3%A9+cr%C3%A8me&utm_campaign=%FF%FE%zz%4&deeplink=%2Fsearch%3Fq%3Dcaf%C3%A9",
    "utm_source=x&utm_source=y&deeplink=&deeplink=%2Fsecond",
    "utm_source=partner&deeplink=https%3A%2F%2Fshop.example.com%2Fproduct%2F7%3Fsize%3DM&utm_medium=referral",
    // Canonicalised, or refused by the validator's content and path rules.
    "deeplink=%2F%256Frders%2F42%3Fx%3D%25c3%25a9",
    "deeplink=%2Forders%252F42",
    "deeplink=%2Forders%E2%80%AE%2F42&utm_source=a",
    "deeplink=%2For%25E2%2580%258Bders",
    "deeplink=%2Forders%2F42%25",
    // The payload key twice: refused, counted over the whole input.
    "deeplink=%2Fproduct%2F1&utm_source=a&deeplink=%2Forders%2F42",
    "deeplink%3D%252Fa%26deeplink%3D%252Fb",
].map { Array($0.utf8) }

@Suite struct ReferrerAllocationTests {
    /// `allCases` builds a fresh array on every call, so the loop reads it from here (by index: in
    /// debug builds a `for … in` over a static array allocates its iterator).
    static let attributionFields = LinkAttribution.Field.allCases

    /// Parses, walks and decodes everything a consumer might read.
    static func parseEverything(_ input: [UInt8], parser: ReferrerParser) -> Int {
        input.withUnsafeBytes { bytes in
            let result = parser.withReferrer(in: bytes) { parsed in
                var checksum = parsed.fieldCount
                for field in parsed.fields {
                    checksum &+= field.withDecodedName { $0.count }
                    checksum &+= field.withDecodedValue { $0.isEmpty ? 0 : Int($0[0]) }
                }
                let attributions = Self.attributionFields
                for index in 0..<attributions.count {
                    checksum &+= parsed.field(attributions[index])?.decodedValueCount ?? 0
                }
                if let payload = parsed.payload {
                    checksum &+= payload.withDecodedValue { $0.count }
                }
                switch parsed.placeholder {
                case .organic: checksum &+= 1
                case .notSet: checksum &+= 2
                case nil: break
                }
                return checksum
            }
            switch result {
            case .success(let checksum): return checksum
            case .failure: return -1
            }
        }
    }

    @Test func parsingAllocatesNothing() {
        // Under the sanitizers their runtime's allocator replaces jemalloc; .ci/run says so.
        guard !Sanitizer.isActive else { return }
        #expect(AllocationCounter.isJemallocActive)
        let parser = ReferrerParser()
        var checksum = 0
        for input in realisticReferrerCorpus { checksum &+= Self.parseEverything(input, parser: parser) }
        let parses = 10_000
        let before = AllocationCounter.threadAllocatedBytes()
        for index in 0..<parses {
            let input = realisticReferrerCorpus[index % realisticReferrerCorpus.count]
            checksum &+= Self.parseEverything(input, parser: parser)
        }
        let bytes = AllocationCounter.threadAllocatedBytes() &- before
        #expect(bytes == 0, "\(bytes) bytes over \(parses) parses")
        #expect(checksum != 0)
    }
}
