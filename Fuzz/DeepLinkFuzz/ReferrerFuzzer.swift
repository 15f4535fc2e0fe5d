import DeepLinkCore
import DeepLinkCoreTestSupport
import DeepLinkHarness

/// `ReferrerParser`: limits, WHATWG splitting, double encoding and the verdict, against
/// ``Reference``.
///
/// Input: one byte picks the configuration (payload key, field and byte limits, routes), the rest is
/// the referrer.
enum ReferrerFuzzer {
    static let payloadKeys = ["deeplink", "d", "", "utm_source", "deep link"]

    static let validators = [
        ExampleApp.validator,
        LinkValidator(configuration: .init(allowedHosts: [], routes: ["/product/", "/orders"])),
    ]

    static func run(_ input: UnsafeRawBufferPointer) {
        var cursor = FuzzInput(input)
        let options = cursor.byte()
        // Bit 7: small limits (byte limit up to 504, field limit up to 15); bit 6: limits above the
        // ceiling (clamped to 8,192 bytes, so the large stack scratch is used); bit 5: routes.
        let small = options & 0x80 != 0
        let huge = !small && options & 0x40 != 0
        let configuration = ReferrerParser.Configuration(
            payloadKey: payloadKeys[Int(options) % payloadKeys.count],
            maxInputBytes: small ? Int(options & 0x3F) * 8 : huge ? 1_000_000 : 4096,
            maxFields: small ? Int(options & 0x0F) : huge ? 100_000 : 64
        )
        if huge {
            fuzzCheck(
                configuration.maxInputBytes == ReferrerParser.Configuration.inputBytesCeiling,
                "maxInputBytes above the ceiling was not clamped"
            )
        }
        let parser = ReferrerParser(configuration: configuration)
        let validator = validators[options & 0x20 == 0 ? 0 : 1]
        let referrer = cursor.rest()
        referrer.withUnsafeBytes { bytes in check(parser, validator, referrer, bytes) }
    }

    static func check(
        _ parser: ReferrerParser,
        _ validator: LinkValidator,
        _ referrer: [UInt8],
        _ bytes: UnsafeRawBufferPointer
    ) {
        let configuration = parser.configuration
        let verdict = parser.verdictRead(bytes, validator: validator)
        fuzzCheck(parser.verdictRead(bytes, validator: validator) == verdict, "verdict is not deterministic")
        if let text = String(validating: referrer, as: UTF8.self) {
            fuzzCheck(parser.verdictRead(text, validator: validator) == verdict, "String and bytes verdicts differ")
        }

        let outer = Reference.fields(referrer)
        let doubleEncoded = Reference.isDoubleEncoded(referrer)
        let effectiveBytes = doubleEncoded ? Reference.formDecoded(referrer) : referrer
        let effective = doubleEncoded ? Reference.fields(effectiveBytes) : outer

        // Limits first, in order: length, outer field count, inner field count.
        if referrer.count > configuration.maxInputBytes {
            let expected = ReferrerError.inputTooLong(length: referrer.count, limit: configuration.maxInputBytes)
            fuzzCheck(verdict == .error(expected), "expected \(expected), got \(verdict)")
            return
        }
        if outer.count > configuration.maxFields {
            let expected = ReferrerError.tooManyFields(count: outer.count, limit: configuration.maxFields)
            fuzzCheck(verdict == .error(expected), "expected \(expected), got \(verdict)")
            return
        }
        if effective.count > configuration.maxFields {
            let expected = ReferrerError.tooManyFields(count: effective.count, limit: configuration.maxFields)
            fuzzCheck(verdict == .error(expected), "expected \(expected) after decoding once, got \(verdict)")
            return
        }

        let key = Array(configuration.payloadKey.utf8)
        // After the limits: the payload key naming two fields is refused, never "the first wins".
        let named = effective.filter { Reference.formDecoded($0.name) == key }.count
        if named > 1 {
            let expected = ReferrerError.duplicatePayloadKey(count: named)
            fuzzCheck(verdict == .error(expected), "expected \(expected), got \(verdict)")
            return
        }
        let payload = effective.first { Reference.formDecoded($0.name) == key }
        let lent = parser.withReferrer(in: bytes) { parsed in
            checkParsed(parsed, outer: outer, effective: effective, doubleEncoded: doubleEncoded, referrer: referrer)
            fuzzCheck(parsed.fieldCount <= configuration.maxFields, "fieldCount above maxFields")
            fuzzCheck(
                parsed.payload.map { Array($0.rawField) } == payload.map(rawField),
                "payload field differs from the reference's first '\(configuration.payloadKey)'"
            )
            // The payload knows the bytes after it, and its decoder may read them.
            if let field = parsed.payload, let payload { checkDecodeInto(field, Reference.formDecoded(payload.value)) }
            fuzzCheck(parser.verdictRead(parsed, validator: validator) == verdict, "lent verdict differs")
            return parsed.placeholder
        }
        guard case .success(let placeholder) = lent else {
            fuzzCheck(false, "withReferrer refused input within the limits: \(lent)")
            return
        }
        let value = parser.withValue(forKey: configuration.payloadKey, in: bytes) { $0.map { Array($0) } }
        fuzzCheck(value == .success(payload.map { Reference.formDecoded($0.value) }), "withValue disagrees")

        switch verdict.verdict {
        case .link:
            guard let link = verdict.link else { return fuzzCheck(false, "a link verdict without its link") }
            guard let payload else { return fuzzCheck(false, "a link without a payload") }
            let decoded = Reference.formDecoded(payload.value)
            let again = decoded.withUnsafeBytes { validator.validate($0) }
            fuzzCheck(again == .success(link), "the payload does not validate to the verdict's link")
            let relinked = link.withUTF8Bytes { validator.validate($0) }
            fuzzCheck(relinked == .success(link), "the link does not re-validate to itself")
        case .rejected(let rejection):
            guard let payload else { return fuzzCheck(false, "a rejection without a payload") }
            let decoded = Reference.formDecoded(payload.value)
            let again = decoded.withUnsafeBytes { validator.validate($0) }
            fuzzCheck(again == .failure(rejection), "the payload's rejection differs: \(again) vs \(rejection)")
        case .organic:
            fuzzCheck(payload == nil && placeholder == .organic, "organic with a payload or without placeholder")
        case .notSet:
            fuzzCheck(payload == nil && placeholder == .notSet, "notSet with a payload or without placeholder")
        case .noPayload:
            fuzzCheck(payload == nil && placeholder == nil, "noPayload with a payload or a placeholder")
        case .error(let error):
            fuzzCheck(false, "error \(error) for input within the limits")
        }
        checkPlaceholder(placeholder, effective)
    }

    static func rawField(_ field: Reference.Field) -> [UInt8] {
        field.hasSeparator ? field.name + [UInt8(ascii: "=")] + field.value : field.name
    }

    static func checkParsed(
        _ parsed: ParsedReferrer,
        outer: [Reference.Field],
        effective: [Reference.Field],
        doubleEncoded: Bool,
        referrer: [UInt8]
    ) {
        fuzzCheck(parsed.isDoubleEncoded == doubleEncoded, "double-encoding detection differs")
        fuzzCheck(Array(parsed.fields.bytes) == referrer, "fields are not over the input")
        fuzzCheck(parsed.fieldCount == effective.count, "fieldCount \(parsed.fieldCount) != \(effective.count)")
        if doubleEncoded {
            // Decoded exactly once: the effective bytes are one decoding of the input, no more.
            fuzzCheck(Array(parsed.effectiveFields.bytes) == Reference.formDecoded(referrer), "not decoded once")
        }
        checkFields(parsed.fields, outer)
        checkFields(parsed.effectiveFields, effective)
    }

    static func checkFields(_ fields: ReferrerFields, _ expected: [Reference.Field]) {
        fuzzCheck(fields.count == expected.count, "field count \(fields.count) != \(expected.count)")
        for (field, reference) in zip(fields, expected) {
            fuzzCheck(Array(field.rawName) == reference.name, "raw name differs")
            fuzzCheck(Array(field.rawValue) == reference.value, "raw value differs")
            fuzzCheck(field.hasSeparator == reference.hasSeparator, "separator differs")
            fuzzCheck(Array(field.rawField) == rawField(reference), "rawField differs")
            let name = Reference.formDecoded(reference.name)
            let value = Reference.formDecoded(reference.value)
            fuzzCheck(field.decodedNameCount == name.count, "decodedNameCount differs")
            fuzzCheck(field.decodedValueCount == value.count, "decodedValueCount differs")
            fuzzCheck(field.withDecodedName { Array($0) } == name, "decoded name differs")
            fuzzCheck(field.withDecodedValue { Array($0) } == value, "decoded value differs")
            fuzzCheck(field.decodedValue == String(decoding: value, as: UTF8.self), "decodedValue differs")
            if let text = String(validating: name, as: UTF8.self) {
                fuzzCheck(field.nameEquals(text), "nameEquals(decoded name) is false")
            }
            checkDecodeInto(field, value)
        }
    }

    /// `decodeValue(into:)` fills an exact buffer and refuses one byte too few.
    static func checkDecodeInto(_ field: ReferrerField, _ value: [UInt8]) {
        var buffer = [UInt8](repeating: 0, count: field.rawValue.count)
        let written = buffer.withUnsafeMutableBytes { field.decodeValue(into: $0) }
        fuzzCheck(written == value.count && Array(buffer.prefix(value.count)) == value, "decodeValue(into:) differs")
        guard !value.isEmpty else { return }
        var short = [UInt8](repeating: 0, count: value.count - 1)
        let refused = short.withUnsafeMutableBytes { field.decodeValue(into: $0) }
        fuzzCheck(refused == nil, "decodeValue(into:) claims to fit in fewer bytes than it decodes to")
    }

    static func checkPlaceholder(_ placeholder: PlayPlaceholder?, _ effective: [Reference.Field]) {
        func firstValue(_ name: String) -> [UInt8]? {
            effective.first { Reference.formDecoded($0.name) == Array(name.utf8) }.map {
                Reference.formDecoded($0.value)
            }
        }
        let source = firstValue("utm_source")
        let medium = firstValue("utm_medium")
        let expected: PlayPlaceholder? =
            if source == Array("google-play".utf8) && medium == Array("organic".utf8) {
                .organic
            } else if source == Array("(not set)".utf8) && medium == Array("(not set)".utf8) {
                .notSet
            } else {
                nil
            }
        fuzzCheck(
            placeholder == expected,
            "placeholder \(String(describing: placeholder)) != \(String(describing: expected))"
        )
    }
}
