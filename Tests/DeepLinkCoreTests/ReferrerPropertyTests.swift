import DeepLinkCore
import DeepLinkCoreTestSupport
import SanitizerTraits
import Testing

/// A deliberately naive form parser over arrays, written straight from the WHATWG steps, to check
/// the zero-copy parser against.
enum ReferenceFormParser {
    static func decode(_ raw: ArraySlice<UInt8>) -> [UInt8] {
        let raw = Array(raw)
        var output: [UInt8] = []
        var index = 0
        while index < raw.count {
            let byte = raw[index]
            if byte == 0x2B {
                output.append(0x20)
            } else if byte == 0x25, index + 2 < raw.count, let high = hex(raw[index + 1]), let low = hex(raw[index + 2])
            {
                output.append(high * 16 + low)
                index += 2
            } else {
                output.append(byte)
            }
            index += 1
        }
        return output
    }

    static func hex(_ byte: UInt8) -> UInt8? {
        guard let scalar = Unicode.Scalar(UInt32(byte)), let digit = Character(scalar).hexDigitValue else { return nil }
        return UInt8(digit)
    }

    static func fields(_ input: [UInt8]) -> [DecodedField] {
        input.split(separator: 0x26, omittingEmptySubsequences: true).map { piece in
            if let equals = piece.firstIndex(of: 0x3D) {
                return DecodedField(decode(piece[..<equals]), decode(piece[(equals + 1)...]))
            }
            return DecodedField(decode(piece), [])
        }
    }

    static func isDoubleEncoded(_ input: [UInt8]) -> Bool {
        guard !input.contains(0x3D), !input.contains(0x26) else { return false }
        let text = String(decoding: input, as: Unicode.ASCII.self).uppercased()
        return text.contains("%3D") || text.contains("%26")
    }

    static func summarize(_ input: [UInt8], maxBytes: Int, maxFields: Int) -> Result<ParsedSummary, ReferrerError> {
        if input.count > maxBytes { return .failure(.inputTooLong(length: input.count, limit: maxBytes)) }
        let outer = fields(input)
        if outer.count > maxFields { return .failure(.tooManyFields(count: outer.count, limit: maxFields)) }
        let doubleEncoded = isDoubleEncoded(input)
        let effective = doubleEncoded ? fields(decode(input[...])) : outer
        if effective.count > maxFields { return .failure(.tooManyFields(count: effective.count, limit: maxFields)) }
        // The payload key may name one field at most.
        let payloadFields = effective.filter { $0.name == Array("deeplink".utf8) }.count
        if payloadFields > 1 { return .failure(.duplicatePayloadKey(count: payloadFields)) }
        func first(_ name: String) -> [UInt8]? { effective.first { $0.name == Array(name.utf8) }?.value }
        var placeholder: PlayPlaceholder?
        if let source = first("utm_source"), let medium = first("utm_medium") {
            if source == Array("google-play".utf8), medium == Array("organic".utf8) { placeholder = .organic }
            if source == Array("(not set)".utf8), medium == Array("(not set)".utf8) { placeholder = .notSet }
        }
        return .success(
            ParsedSummary(
                fields: outer,
                effectiveFields: effective,
                isDoubleEncoded: doubleEncoded,
                payload: first("deeplink"),
                placeholder: placeholder
            )
        )
    }
}

/// Random referrers biased toward the bytes that matter to the grammar (`%`, `+`, `&`, `=`, hex
/// digits) and the tokens that matter to the parser (keys, placeholders, encoded separators).
func randomReferrer(using generator: inout SeededGenerator) -> [UInt8] {
    let tokens = [
        "deeplink", "utm_source", "utm_medium", "google-play", "organic", "(not%20set)", "(not+set)", "%3D", "%3d",
        "%26", "%25", "%2F", "%FF", "%C3%A9",
    ]
    let alphabet = Array("%%%%++&&&&====0123456789abcdefABCDEFxyz3D26".utf8)
    let length = Int.random(in: 0...40, using: &generator)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(length + 16)
    while bytes.count < length {
        switch Int.random(in: 0..<100, using: &generator) {
        case 0..<12: bytes += Array(tokens.randomElement(using: &generator)!.utf8)
        case 12..<20: bytes.append(UInt8.random(in: 0...255, using: &generator))
        default: bytes.append(alphabet.randomElement(using: &generator)!)
        }
    }
    return bytes
}

/// Long referrers (up to about 400 bytes) of many fields with the specials at random places: plain
/// runs long enough for whole sixteen-byte blocks, escapes valid and not (also split by a block's
/// end and at the very end), `+`, raw `=`, empty pieces, and names that start like the payload key
/// (`d…`, `%…`, `+…`) or spell it with escapes, one to many of them.
func randomLongReferrer(using generator: inout SeededGenerator) -> [UInt8] {
    let names = [
        "deeplink", "deeplink", "d", "dclid", "deeplinks", "deep", "%64eeplink", "deep%6Cink", "+x", "%", "%zz",
        "utm_source", "utm_medium", "gclid", "x", "",
    ]
    let plain = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~/".utf8)
    let hex = Array("0123456789abcdefABCDEF".utf8)
    func value(_ generator: inout SeededGenerator) -> [UInt8] {
        var bytes: [UInt8] = []
        for _ in 0..<Int.random(in: 0...12, using: &generator) {
            switch Int.random(in: 0..<100, using: &generator) {
            case 0..<30:
                for _ in 0..<Int.random(in: 1...40, using: &generator) {
                    bytes.append(plain.randomElement(using: &generator)!)
                }
            case 30..<65:
                bytes += [0x25, hex.randomElement(using: &generator)!, hex.randomElement(using: &generator)!]
            case 65..<72: bytes.append(0x25)
            case 72..<77: bytes += [0x25, hex.randomElement(using: &generator)!]
            case 77..<82: bytes += [0x25, 0x47, hex.randomElement(using: &generator)!]
            case 82..<90: bytes.append(0x2B)
            case 90..<94: bytes.append(0x3D)
            default: bytes.append(UInt8.random(in: 0...255, using: &generator) | 0x80)
            }
        }
        return bytes
    }
    var bytes: [UInt8] = Int.random(in: 0..<8, using: &generator) == 0 ? [0x26] : []
    for index in 0..<Int.random(in: 0...14, using: &generator) {
        if index > 0 { bytes += Int.random(in: 0..<8, using: &generator) == 0 ? [0x26, 0x26] : [0x26] }
        bytes += Array(names.randomElement(using: &generator)!.utf8)
        if Int.random(in: 0..<6, using: &generator) > 0 { bytes += [0x3D] + value(&generator) }
    }
    if Int.random(in: 0..<8, using: &generator) == 0 { bytes.append(0x26) }
    return bytes
}

@Suite(.startsNoThread) struct ReferrerPropertyTests {
    @Test func agreesWithReferenceImplementationOnRandomBytes() {
        let iterations = Sanitizer.isActive ? 20_000 : 100_000
        var generator = SeededGenerator(seed: 0x5EED_2026)
        let tight = ReferrerParser(configuration: .init(maxInputBytes: 32, maxFields: 4))
        let roomy = ReferrerParser()
        var check = PropertyCheck()
        var doubleEncodedSeen = 0
        var errorsSeen = 0
        for index in 0..<iterations {
            let input = randomReferrer(using: &generator)
            let useTight = index % 4 == 0
            let parser = useTight ? tight : roomy
            let actual = summarize(input, parser: parser)
            let expected = ReferenceFormParser.summarize(
                input,
                maxBytes: parser.configuration.maxInputBytes,
                maxFields: parser.configuration.maxFields
            )
            check.record(actual == expected, "mismatch for \(input): \(actual) vs reference \(expected)")
            if case .success(let summary) = expected, summary.isDoubleEncoded { doubleEncodedSeen += 1 }
            if case .failure = expected { errorsSeen += 1 }
        }
        #expect(check.mismatches == 0)
        // The generator must actually reach the interesting paths.
        #expect(doubleEncodedSeen > iterations / 200)
        #expect(errorsSeen > iterations / 100)
    }

    /// The one pass that fills a ``LinkAttribution`` and ``ReferrerFields/first(named:)-(String)``
    /// find the first field of each name, as the reference does, however the names are spelled.
    @Test func attributionAndLookupsAgreeWithReferenceOnRandomFields() {
        let names = [
            "utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content", "gclid", "utm%5Fterm", "%67clid",
            "utm_sourc", "utm_sourcex", "gclidx", "gcli", "utm_campaig%6E", "utm+term", "u", "g", "%", "", "account",
            "acc%6Funt", "deeplin", "utm_medium%", "%75tm_medium",
        ]
        let values = ["", "a", "x%20y", "%FF", "+", "(not%20set)", "google-play", "organic", "%3D", "caf%C3%A9"]
        var generator = SeededGenerator(seed: 0xA77_2026)
        let parser = ReferrerParser()
        var check = PropertyCheck()
        var present = 0
        // Fewer under a sanitizer, where every parse runs many times slower.
        let iterations = Sanitizer.isActive ? 4_000 : 20_000
        for _ in 0..<iterations {
            var referrer = Int.random(in: 0..<4, using: &generator) == 0 ? "&" : ""
            for index in 0..<Int.random(in: 0...7, using: &generator) {
                if index > 0 { referrer += Int.random(in: 0..<6, using: &generator) == 0 ? "&&" : "&" }
                referrer += names.randomElement(using: &generator)!
                if Int.random(in: 0..<5, using: &generator) > 0 {
                    referrer += "=" + values.randomElement(using: &generator)!
                }
            }
            let input = Array(referrer.utf8)
            guard case .success(let expected) = ReferenceFormParser.summarize(input, maxBytes: 4096, maxFields: 64)
            else { continue }
            func reference(_ name: String) -> [UInt8]? {
                expected.effectiveFields.first { $0.name == Array(name.utf8) }?.value
            }
            let agrees = input.withUnsafeBytes { bytes -> Bool in
                let result = parser.withReferrer(in: bytes) { parsed -> Bool in
                    var attribution = LinkAttribution()
                    attribution.assign(from: parsed)
                    var agrees = parsed.placeholder == expected.placeholder
                    for field in ReferrerAllocationTests.attributionFields {
                        let wanted = reference(String(describing: field.key))
                        if wanted != nil { present += 1 }
                        agrees = agrees && parsed.field(field).map { Array(decoding: $0) } == wanted
                        if !attribution.isTruncated {
                            agrees = agrees && attribution.withValue(field) { $0.map { Array($0) } } == wanted
                        }
                    }
                    let account = parsed.effectiveFields.first(named: "account").map { Array(decoding: $0) }
                    return agrees && account == reference("account")
                }
                return (try? result.get()) ?? false
            }
            check.record(agrees, "mismatch for \(referrer)")
        }
        #expect(check.mismatches == 0)
        #expect(present > iterations / 2, "the generator must name the attribution fields often")
    }

    /// The sixteen-byte scan, the candidate fields it keeps (two, then every field again) and the
    /// block decoder, on long referrers with random specials, against the reference.
    @Test func agreesWithReferenceOnLongReferrersWithRandomSpecials() {
        let iterations = Sanitizer.isActive ? 3_000 : 30_000
        var generator = SeededGenerator(seed: 0x5CA7_2026)
        let parser = ReferrerParser()
        var check = PropertyCheck()
        var longPayloads = 0
        var manyCandidates = 0
        var duplicates = 0
        for _ in 0..<iterations {
            let input = randomLongReferrer(using: &generator)
            let expected = ReferenceFormParser.summarize(input, maxBytes: 4096, maxFields: 64)
            check.record(summarize(input, parser: parser) == expected, "mismatch for \(input)")
            let starts = input.split(separator: 0x26).filter { piece in
                piece.first.map { [0x64, 0x25, 0x2B].contains($0) } ?? false
            }
            if starts.count > 2 { manyCandidates += 1 }
            switch expected {
            case .success(let summary): if (summary.payload?.count ?? 0) > 64 { longPayloads += 1 }
            case .failure(.duplicatePayloadKey): duplicates += 1
            case .failure: break
            }
        }
        #expect(check.mismatches == 0)
        // The generator must reach the paths it was written for.
        #expect(longPayloads > iterations / 50)
        #expect(manyCandidates > iterations / 20)
        #expect(duplicates > iterations / 50)
    }

    /// The block decoder on values of every length up to 300 bytes, escapes dense or sparse: what
    /// the reference decodes, into a buffer of any size that fits (with the decoder's slack, one
    /// byte short of it, exactly the raw bytes, exactly the decoded ones), and nothing written
    /// outside it.
    @Test func decodeAgreesWithReferenceOnLongValues() {
        var generator = SeededGenerator(seed: 0xB10C_2026)
        let sentinel: UInt8 = 0xA5
        let hex = Array("0123456789abcdefABCDEF".utf8)
        var check = PropertyCheck()
        for length in 0...300 {
            for _ in 0..<(Sanitizer.isActive ? 4 : 40) {
                let density = Int.random(in: 0...3, using: &generator)
                var raw: [UInt8] = []
                while raw.count < length {
                    let roll = Int.random(in: 0..<12, using: &generator)
                    if roll < density * 2 {
                        raw += [0x25, hex.randomElement(using: &generator)!, hex.randomElement(using: &generator)!]
                    } else if roll == 11 {
                        raw.append([0x25, 0x2B, 0x2B, 0x3D][Int.random(in: 0..<4, using: &generator)])
                    } else {
                        raw.append(UInt8.random(in: 0x30...0x7A, using: &generator))
                    }
                }
                raw = Array(raw.prefix(length))  // may cut an escape short at the very end
                let expected = ReferenceFormParser.decode(raw[...])
                let slack = raw.count + FormDecoding.blockSlack
                for room in [slack, slack - 1, raw.count, expected.count, expected.count - 1] where room >= 0 {
                    var destination = [UInt8](repeating: sentinel, count: room + 8)
                    let written = raw.withUnsafeBytes { source in
                        destination.withUnsafeMutableBytes { all in
                            FormDecoding.decode(source, into: UnsafeMutableRawBufferPointer(rebasing: all[0..<room]))
                        }
                    }
                    let fits = room >= expected.count
                    let decoded =
                        fits
                        ? written == expected.count && Array(destination.prefix(room)).starts(with: expected)
                        : written == nil
                    let untouched = destination.dropFirst(room).allSatisfy { $0 == sentinel }
                    check.record(decoded && untouched, "mismatch for \(raw) into \(room) bytes")
                }
            }
        }
        #expect(check.mismatches == 0)
    }

    /// The decoder reads only the value's bytes and writes only inside its destination, whatever
    /// the length (every one up to 130, so every way a value ends against the 16-byte blocks, the
    /// value's last sixteen bytes, the 34-byte and the 64-byte tails) and wherever an escape sits
    /// (straddling a block boundary, cut short at the end): the bytes after the value spell
    /// `1+%41...`, which would change the result if any of them were read (a `%4` at the end
    /// would become `A`), and the destination (exactly the decoded bytes, the raw bytes, or those
    /// and the decoder's slack) is followed by sentinels.
    @Test func decodeReadsOnlyTheValueWhereverItsEscapesSit() {
        let sentinel: UInt8 = 0xA5
        let poison = Array("1+%41+%42%4+%43+%44%45+%46".utf8)
        let escapes: [[UInt8]] = [
            Array("%2F".utf8), Array("+".utf8), Array("%4".utf8), Array("%".utf8), Array("%%41".utf8),
            Array("%zz".utf8), Array("%2F%3D".utf8),
        ]
        var check = PropertyCheck()
        for length in stride(from: 0, through: 130, by: Sanitizer.isActive ? 7 : 1) {
            for position in 0..<max(length, 1) {
                for escape in escapes {
                    var raw = (0..<length).map { UInt8(ascii: "a") &+ UInt8($0 % 26) }
                    raw.replaceSubrange(position..<min(length, position + escape.count), with: escape)
                    raw = Array(raw.prefix(length))
                    let expected = ReferenceFormParser.decode(raw[...])
                    let input = raw + poison
                    for room in [expected.count, raw.count, raw.count + FormDecoding.blockSlack] {
                        let agrees = Self.decodes(
                            raw.count,
                            bytesOf: input,
                            into: room,
                            bytesAfter: nil,
                            exactly: expected,
                            sentinel: sentinel
                        )
                        check.record(agrees, "mismatch for \(String(decoding: raw, as: UTF8.self)) into \(room) bytes")
                    }
                }
            }
        }
        #expect(check.mismatches == 0)
        #expect(check.cases > 1_000)
    }

    /// Whether decoding the first `count` bytes of `input` (with `bytesAfter` more of it readable,
    /// or without saying so) into `room` bytes of a buffer filled with `sentinel` writes `expected`
    /// at its start and nothing past the `room` bytes.
    private static func decodes(
        _ count: Int,
        bytesOf input: [UInt8],
        into room: Int,
        bytesAfter: Int?,
        exactly expected: [UInt8],
        sentinel: UInt8
    ) -> Bool {
        var destination = [UInt8](repeating: sentinel, count: room + 24)
        let written = input.withUnsafeBytes { all in
            destination.withUnsafeMutableBytes { target in
                let raw = UnsafeRawBufferPointer(rebasing: all[0..<count])
                let into = UnsafeMutableRawBufferPointer(rebasing: target[0..<room])
                return if let bytesAfter {
                    FormDecoding.decode(raw, into: into, bytesAfter: bytesAfter)
                } else {
                    FormDecoding.decode(raw, into: into)
                }
            }
        }
        return written == expected.count && Array(destination.prefix(expected.count)) == expected
            && destination.dropFirst(room).allSatisfy { $0 == sentinel }
    }

    /// A value followed by readable bytes of its buffer (an `&`, then bytes that would change the
    /// result if they were decoded: `%41`, `+`, a `%` that the value's last bytes could complete)
    /// is decoded straight from the buffer when 18 or more follow: every length up to 100, an
    /// escape at every position, and exactly what the reference decodes, into exactly the raw
    /// bytes' room or with the decoder's slack, nothing written outside it.
    @Test func decodeOfAValueFollowedByItsFieldsReadsOnlyTheValue() {
        let sentinel: UInt8 = 0xA5
        let after = Array("&%41+%42%4+%43+%44%45+%46%47%48".utf8)
        var check = PropertyCheck()
        for length in stride(from: 0, through: 100, by: Sanitizer.isActive ? 7 : 1) {
            for position in 0..<max(length, 1) {
                for escape in [Array("%2F".utf8), Array("+".utf8), Array("%4".utf8), Array("%".utf8)] {
                    var raw = (0..<length).map { UInt8(ascii: "a") &+ UInt8($0 % 6) }  // hex digits
                    raw.replaceSubrange(position..<min(length, position + escape.count), with: escape)
                    raw = Array(raw.prefix(length))
                    let expected = ReferenceFormParser.decode(raw[...])
                    for following in [17, 18, 19, 33] {
                        let input = raw + after.prefix(following)
                        for room in [raw.count, raw.count + FormDecoding.blockSlack] {
                            let agrees = Self.decodes(
                                raw.count,
                                bytesOf: input,
                                into: room,
                                bytesAfter: following,
                                exactly: expected,
                                sentinel: sentinel
                            )
                            check.record(agrees, "mismatch for \(String(decoding: input, as: UTF8.self))")
                        }
                    }
                }
            }
        }
        #expect(check.mismatches == 0)
        #expect(check.cases > 1_000)
    }

    /// A payload decoded through the parser, as the last field or followed by 1 to 40 bytes of
    /// other fields, with an escape at every position: the parser's view of it must decode exactly
    /// what the reference decodes from the value alone.
    @Test func payloadDecodesAlikeWhateverFollowsIt() {
        let parser = ReferrerParser()
        var check = PropertyCheck()
        for length in stride(from: 1, through: 70, by: Sanitizer.isActive ? 5 : 1) {
            for position in 0..<length {
                var value = (0..<length).map { UInt8(ascii: "0") &+ UInt8($0 % 10) }
                let escape = Array("%2F".utf8).prefix(length - position)  // cut short at the end
                value.replaceSubrange(position..<min(length, position + 3), with: escape)
                let expected = ReferenceFormParser.decode(value[...])
                for following in [0, 1, 2, 3, 14, 15, 16, 17, 18, 40] {
                    var input = Array("utm_source=x&deeplink=".utf8) + value
                    if following > 0 { input += Array("&z=%41+%42%4%".utf8.prefix(following)) }
                    while input.count < 22 + length + following { input.append(UInt8(ascii: "1")) }
                    let decoded = input.withUnsafeBytes { bytes in
                        parser.withReferrer(in: bytes) { parsed in
                            parsed.payload.map { field in
                                [UInt8](unsafeUninitializedCapacity: field.rawValue.count) { buffer, count in
                                    count = field.decodeValue(into: UnsafeMutableRawBufferPointer(buffer)) ?? 0
                                }
                            }
                        }
                    }
                    check.record(
                        decoded == .success(expected),
                        "mismatch for \(String(decoding: input, as: UTF8.self))"
                    )
                }
            }
        }
        #expect(check.mismatches == 0)
    }
}

extension Array where Element == UInt8 {
    /// The decoded value of `field`.
    fileprivate init(decoding field: ReferrerField) { self = field.withDecodedValue { Array($0) } }
}
