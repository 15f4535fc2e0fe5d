import DeepLinkCore
import DeepLinkCoreTestSupport
import Testing

/// What ``ReferrerParser/withReferrer(in:_:)`` made of an input, copied out of the closure.
struct ParsedSummary: Equatable {
    var fields: [DecodedField]
    var effectiveFields: [DecodedField]
    var isDoubleEncoded: Bool
    var payload: [UInt8]?
    var placeholder: PlayPlaceholder?
}

func summarize(_ input: [UInt8], parser: ReferrerParser = ReferrerParser()) -> Result<ParsedSummary, ReferrerError> {
    input.withUnsafeBytes { bytes in
        parser.withReferrer(in: bytes) { parsed in
            ParsedSummary(
                fields: parsed.fields.map(DecodedField.init),
                effectiveFields: parsed.effectiveFields.map(DecodedField.init),
                isDoubleEncoded: parsed.isDoubleEncoded,
                payload: parsed.payload.map { field in field.withDecodedValue { Array($0) } },
                placeholder: parsed.placeholder
            )
        }
    }
}

func summarize(_ input: String, parser: ReferrerParser = ReferrerParser()) -> Result<ParsedSummary, ReferrerError> {
    summarize(Array(input.utf8), parser: parser)
}

@Suite struct ReferrerParserTests {
    @Test func findsPayloadAndAttributionFields() throws {
        let input = Array(
            "utm_source=google&utm_medium=cpc&utm_campaign=spring+sale&utm_term=shoes&utm_content=ad%201&gclid=Cj0&deeplink=%2Fproduct%2F42"
                .utf8
        )
        let expected: [LinkAttribution.Field: String] = [
            .utmSource: "google", .utmMedium: "cpc", .utmCampaign: "spring sale", .utmTerm: "shoes",
            .utmContent: "ad 1", .gclid: "Cj0",
        ]
        let result = input.withUnsafeBytes { bytes in
            ReferrerParser().withReferrer(in: bytes) { parsed in
                #expect(parsed.fieldCount == 7)
                #expect(parsed.payload?.decodedValue == "/product/42")
                for attribution in LinkAttribution.Field.allCases {
                    #expect(parsed.field(attribution)?.decodedValue == expected[attribution], "\(attribution)")
                }
                #expect(parsed.placeholder == nil)
                return true
            }
        }
        #expect(try result.get())
    }

    /// A payload key named twice was once "the first wins"; it is now refused as ambiguous.
    @Test func payloadKeyIsConfigurableAndNamedOnlyOnce() throws {
        let parser = ReferrerParser(configuration: .init(payloadKey: "link"))
        #expect(try summarize("deeplink=%2Fa&link=%2Fb", parser: parser).get().payload == Array("/b".utf8))
        #expect(
            summarize("deeplink=%2Fa&link=%2Fb&link=%2Fc", parser: parser) == .failure(.duplicatePayloadKey(count: 2))
        )
        #expect(summarize("deeplink=%2Fa&deeplink=%2Fz") == .failure(.duplicatePayloadKey(count: 2)))
        #expect(summarize("deeplink=%2Fa&deep%6Cink=%2Fz&deeplink") == .failure(.duplicatePayloadKey(count: 3)))
        #expect(summarize("deeplink=%2Fa&deeplink=") == .failure(.duplicatePayloadKey(count: 2)), "empty counts")
        // Double-encoded: counted after decoding once.
        #expect(summarize("deeplink%3D%252Fa%26deeplink%3D%252Fb") == .failure(.duplicatePayloadKey(count: 2)))
        // Limits come first; other keys may repeat.
        let small = ReferrerParser(configuration: .init(maxFields: 1))
        #expect(summarize("deeplink=%2Fa&deeplink=%2Fz", parser: small) == .failure(.tooManyFields(count: 2, limit: 1)))
        #expect(try summarize("utm_source=a&utm_source=b&deeplink=%2Fa").get().payload == Array("/a".utf8))
        #expect(ReferrerError.duplicatePayloadKey(count: 2).name == "duplicatePayloadKey")
        #expect("\(ReferrerError.duplicatePayloadKey(count: 2))".contains("names 2 fields"))
        #expect(try summarize("deep%6Cink=%2Fa").get().payload == Array("/a".utf8))
        #expect(try summarize("deeplink=").get().payload == [])
        #expect(try summarize("deeplink").get().payload == [])
        #expect(try summarize("utm_source=x").get().payload == nil)
    }

    /// The parser's one-pass payload search must find exactly what a plain name lookup finds, for
    /// keys and names with `+`, `%`, spaces, escapes and lengths around eight bytes.
    @Test func payloadSearchMatchesNameLookupForUnusualKeys() throws {
        let keys = [
            "", "a", "a b", "a+b", "a%b", "a%41", "deeplink", "deep link", "é", "twelve_bytes", "sixteen_bytes_ok",
        ]
        let names = [
            "", "a", "A", "%61", "a+b", "a%20b", "a%2Bb", "a%2bb", "a%b", "a%25b", "a%41", "a%2541", "aA",
            "deeplink", "deep%6Cink", "%64eeplink", "deep+link", "deep%20link", "deeplinK", "deeplinks", "%C3%A9",
            "twelve_bytes", "twelve%5Fbytes", "sixteen_bytes_ok", "sixteen_bytes_o%6B",
        ]
        var checked = 0
        for key in keys {
            let parser = ReferrerParser(configuration: .init(payloadKey: key))
            for name in names {
                for input in ["x=1&\(name)=v&\(name)=w", "\(name)=v", "\(name)", "&&\(name)&y"] {
                    let bytes = Array(input.utf8)
                    let found = bytes.withUnsafeBytes { raw in
                        parser.withReferrer(in: raw) { parsed in parsed.payload.map { Array($0.rawField) } }
                    }
                    let (expected, named) = bytes.withUnsafeBytes { raw in
                        let fields = ReferrerFields(unsafeBytes: raw)
                        return (
                            fields.first(named: key).map { Array($0.rawField) }, fields.count { $0.nameEquals(key) }
                        )
                    }
                    if named > 1 {
                        #expect(found == .failure(.duplicatePayloadKey(count: named)), "key \(key), input \(input)")
                    } else {
                        #expect(try found.get() == expected, "key \(key), input \(input)")
                    }
                    checked += 1
                }
            }
        }
        #expect(checked == keys.count * names.count * 4)
        #expect(summarize("deep%6Cink=%2Fa&deeplink=%2Fb") == .failure(.duplicatePayloadKey(count: 2)))
    }

    /// `decode(_:into:)` copies whole blocks where it can; it must still produce exactly what the
    /// byte-at-a-time decoder produces and never write outside its destination.
    @Test func decodeMatchesTheByteDecoderAndWritesOnlyInsideItsDestination() {
        var generator = SeededGenerator(seed: 0xDEC0DE)
        let sentinel: UInt8 = 0xA5
        var checked = 0
        for _ in 0..<(Sanitizer.isActive ? 500 : 5_000) {
            var raw: [UInt8] = []
            for _ in 0..<Int.random(in: 0...4, using: &generator) { raw += randomReferrer(using: &generator) }
            let expected = raw.withUnsafeBytes { Array(FormDecoding.DecodedBytes($0)) }
            // Room for the decoder's slack, sentinels after it.
            let room = raw.count + FormDecoding.blockSlack
            var destination = [UInt8](repeating: sentinel, count: room + 16)
            let written = raw.withUnsafeBytes { source in
                destination.withUnsafeMutableBytes { all in
                    FormDecoding.decode(source, into: UnsafeMutableRawBufferPointer(rebasing: all[0..<room]))
                }
            }
            #expect(written == expected.count)
            #expect(Array(destination.prefix(expected.count)) == expected, "\(raw)")
            #expect(destination.dropFirst(room).allSatisfy { $0 == sentinel }, "\(raw)")
            checked += 1
        }
        #expect(checked > 0)
        // Every escape `%XY`, inside a run long enough for the word-wise path and at the end.
        var mismatches = 0
        for high in UInt8.min...UInt8.max {
            for low in UInt8.min...UInt8.max {
                let raw = Array("0123456789abcdefghijklmnopqrstuvwxyz%".utf8) + [high, low] + Array("_end".utf8)
                for input in [raw, Array(raw.suffix(7))] {
                    let expected = input.withUnsafeBytes { Array(FormDecoding.DecodedBytes($0)) }
                    let decoded = input.withUnsafeBytes { source in
                        [UInt8](unsafeUninitializedCapacity: source.count) { buffer, count in
                            count = FormDecoding.decode(source, into: UnsafeMutableRawBufferPointer(buffer)) ?? 0
                        }
                    }
                    if decoded != expected { mismatches += 1 }
                }
            }
        }
        #expect(mismatches == 0)
    }

    @Test func withValueLendsTheDecodedValue() {
        let input = Array("a=1&utm_source=google%2Dplay&deeplink=%2Fx".utf8)
        let parser = ReferrerParser()
        let source = input.withUnsafeBytes { bytes in
            parser.withValue(forKey: "utm_source", in: bytes) { value in value.map { Array($0) } }
        }
        #expect(source == .success(Array("google-play".utf8)))
        let missing = input.withUnsafeBytes { bytes in
            parser.withValue(forKey: "gclid", in: bytes) { value in value == nil }
        }
        #expect(missing == .success(true))
    }

    @Test func recognisesPlayPlaceholders() throws {
        #expect(try summarize("utm_source=google-play&utm_medium=organic").get().placeholder == .organic)
        #expect(try summarize("utm_medium=organic&x=1&utm_source=google%2Dplay").get().placeholder == .organic)
        #expect(try summarize("utm_source=(not%20set)&utm_medium=(not%20set)").get().placeholder == .notSet)
        #expect(try summarize("utm_source=(not+set)&utm_medium=(not%20set)").get().placeholder == .notSet)
        #expect(try summarize("utm_source=google-play&utm_medium=cpc").get().placeholder == nil)
        #expect(try summarize("utm_source=google-play").get().placeholder == nil)
        #expect(try summarize("utm_source=(not%20set)&utm_medium=organic").get().placeholder == nil)
        #expect(try summarize("utm_source=Google-Play&utm_medium=organic").get().placeholder == nil)
    }

    @Test func decodesDoubleEncodedReferrersOnceAndParsesAgain() throws {
        let summary = try summarize("utm_source%3Dgoogle%26deeplink%3D%252Fproduct%252F42").get()
        #expect(summary.isDoubleEncoded)
        #expect(summary.fields == [.init("utm_source=google&deeplink=%2Fproduct%2F42", "")])
        #expect(summary.effectiveFields == [.init("utm_source", "google"), .init("deeplink", "/product/42")])
        #expect(summary.payload == Array("/product/42".utf8))

        let lowerCase = try summarize("utm_source%3dgoogle-play%26utm_medium%3dorganic").get()
        #expect(lowerCase.isDoubleEncoded)
        #expect(lowerCase.placeholder == .organic)

        // A raw `=` or `&` means the referrer is an ordinary form, escapes and all.
        let ordinary = try summarize("a=1&b=%3D%26").get()
        #expect(!ordinary.isDoubleEncoded)
        #expect(ordinary.effectiveFields == [.init("a", "1"), .init("b", "=&")])

        // Decoded exactly once: a triple-encoded payload stays encoded one level.
        let triple = try summarize("deeplink%3D%25252Fa").get()
        #expect(triple.payload == Array("%2Fa".utf8))
    }

    @Test func bareTokenHasNoPayload() throws {
        let summary = try summarize("1234567").get()
        #expect(!summary.isDoubleEncoded)
        #expect(summary.fields == [.init("1234567", "")])
        #expect(summary.payload == nil)
        #expect(summary.placeholder == nil)
    }

    @Test func refusesInputOverTheByteLimit() {
        let parser = ReferrerParser(configuration: .init(maxInputBytes: 10))
        #expect(summarize("a=123456", parser: parser).isSuccess)
        #expect(summarize("a=12345678", parser: parser).isSuccess)
        #expect(summarize("a=123456789", parser: parser) == .failure(.inputTooLong(length: 11, limit: 10)))
        let defaultLimit = [UInt8](repeating: UInt8(ascii: "a"), count: 4097)
        #expect(summarize(defaultLimit) == .failure(.inputTooLong(length: 4097, limit: 4096)))
        #expect(summarize(Array(defaultLimit.dropLast())).isSuccess)
        #expect(ReferrerError.inputTooLong(length: 11, limit: 10).name == "inputTooLong")
    }

    @Test func refusesTooManyFields() {
        let parser = ReferrerParser(configuration: .init(maxFields: 3))
        #expect(summarize("a&b&c", parser: parser).isSuccess)
        #expect(summarize("a&&b&&c&&", parser: parser).isSuccess)
        #expect(summarize("a&b&c&d", parser: parser) == .failure(.tooManyFields(count: 4, limit: 3)))
        // Counted again after undoing double encoding.
        #expect(summarize("a%26b%26c%26d", parser: parser) == .failure(.tooManyFields(count: 4, limit: 3)))
        let many = Array(repeating: "x=1", count: 65).joined(separator: "&")
        #expect(summarize(many) == .failure(.tooManyFields(count: 65, limit: 64)))
        #expect(ReferrerError.tooManyFields(count: 4, limit: 3).name == "tooManyFields")
    }

    @Test func configurationClampsItsLimits() {
        var configuration = ReferrerParser.Configuration(maxInputBytes: 1 << 20, maxFields: -1)
        #expect(configuration.maxInputBytes == ReferrerParser.Configuration.inputBytesCeiling)
        #expect(configuration.maxFields == 0)
        configuration.maxInputBytes = -5
        #expect(configuration.maxInputBytes == 0)
        #expect(ReferrerParser.Configuration().payloadKey == "deeplink")
        #expect(ReferrerParser.Configuration().maxInputBytes == 4096)
        #expect(ReferrerParser.Configuration().maxFields == 64)
    }

    @Test func largeDoubleEncodedInputUsesTheBigScratch() throws {
        let parser = ReferrerParser(configuration: .init(maxInputBytes: 8192, maxFields: 2000))
        let value = String(repeating: "%2541", count: 1500)  // 7,500 bytes, decoded once: 4,500
        let summary = try summarize("k%3D" + value, parser: parser).get()
        #expect(summary.isDoubleEncoded)
        #expect(
            summary.effectiveFields == [DecodedField(Array("k".utf8), Array(repeating: UInt8(ascii: "A"), count: 1500))]
        )
    }

    @Test func anyBytesAreSafe() {
        // Every single byte and every pair, under tiny limits and the defaults.
        let parsers = [ReferrerParser(), ReferrerParser(configuration: .init(maxInputBytes: 1, maxFields: 0))]
        for first in 0...255 {
            for second in 0...255 {
                let input: [UInt8] = [UInt8(first), UInt8(second), UInt8(ascii: "%"), UInt8(second)]
                for parser in parsers { _ = summarize(input, parser: parser) }
            }
        }
        #expect(summarize([0x25]).isSuccess)
    }
}

extension Result {
    var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}
