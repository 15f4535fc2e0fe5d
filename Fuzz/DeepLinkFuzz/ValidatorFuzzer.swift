import DeepLinkCore
import DeepLinkHarness

/// `LinkValidator`: every accepted link satisfies the documented invariants, is the reference
/// canonical form of its payload and re-validates to itself; rejections follow the documented
/// precedence where it can be judged from outside.
///
/// Input: one byte picks the configuration (hosts, routes), the rest is the decoded payload.
enum ValidatorFuzzer {
    static let routes = ["/product/", "/orders", "/"]

    static let validators = [
        ExampleApp.validator,
        LinkValidator(configuration: .init(allowedHosts: [])),
        LinkValidator(configuration: .init(allowedHosts: ExampleApp.allowedHosts, routes: ["/product/", "/orders"])),
        LinkValidator(configuration: .init(allowedHosts: ["Example.COM", "a"], routes: ["/"])),
    ]

    static func run(_ input: UnsafeRawBufferPointer) {
        var cursor = FuzzInput(input)
        let validator = validators[cursor.choose(validators.count)]
        let payload = cursor.rest()
        let result = payload.withUnsafeBytes { validator.validate($0) }
        fuzzCheck(payload.withUnsafeBytes { validator.validate($0) } == result, "validation is not deterministic")
        let text = String(validating: payload, as: UTF8.self)
        if let text {
            fuzzCheck(validator.validate(text) == result, "String and bytes results differ")
        }
        switch result {
        case .success(let link):
            checkAccepted(link, payload: payload, validator: validator)
        case .failure(let rejection):
            checkRejected(rejection, payload: payload, isUTF8: text != nil)
        }
    }

    static func checkAccepted(_ link: DeepLink, payload: [UInt8], validator: LinkValidator) {
        let bytes = link.withUTF8Bytes { Array($0) }
        fuzzCheck(!bytes.isEmpty && bytes[0] == UInt8(ascii: "/"), "link does not start with '/'")
        fuzzCheck(bytes.count <= DeepLink.capacity, "link longer than capacity")
        fuzzCheck(link.utf8Count == bytes.count, "utf8Count differs")
        guard let text = String(validating: bytes, as: UTF8.self) else { return fuzzCheck(false, "link is not UTF-8") }
        fuzzCheck(link.string == text, "string differs from the bytes")
        for scalar in text.unicodeScalars {
            fuzzCheck(!Reference.isControl(scalar.value), "link holds control U+\(scalar.value)")
            fuzzCheck(!Reference.isInvisible(scalar), "link holds invisible U+\(scalar.value)")
        }
        let unescapedText = String(decoding: Reference.percentUnescaped(bytes), as: UTF8.self)
        fuzzCheck(
            !unescapedText.unicodeScalars.contains(where: Reference.isInvisible),
            "link holds an encoded invisible"
        )
        fuzzCheck(Reference.canonical(bytes) == bytes, "the link is not in canonical form")
        fuzzCheck(!bytes.contains(UInt8(ascii: "\\")), "link holds a backslash")
        fuzzCheck(!bytes.contains(UInt8(ascii: "#")), "link keeps a fragment")
        let unescaped = Reference.percentUnescaped(bytes)
        fuzzCheck(!unescaped.contains(UInt8(ascii: "\\")), "link holds an encoded backslash")
        fuzzCheck(!unescaped.contains { $0 < 0x20 || $0 == 0x7F }, "link holds an encoded control byte")
        for index in unescaped.indices.dropLast() where unescaped[index] == 0xC2 {
            fuzzCheck(!(0x80...0x9F).contains(unescaped[index + 1]), "link holds an encoded C1 control")
        }

        let path = Array(bytes.prefix { $0 != UInt8(ascii: "?") })
        fuzzCheck(link.pathUTF8Count == path.count, "pathUTF8Count differs")
        fuzzCheck(link.path == String(decoding: path, as: UTF8.self), "path differs")
        fuzzCheck(link.hasQuery == (path.count < bytes.count), "hasQuery differs")
        fuzzCheck(!Reference.hasDotSegment(path), "link has a dot segment")
        let pathText = String(decoding: path, as: UTF8.self).uppercased()
        for delimiter in ["%2F", "%3F", "%23", "%3B"] {
            fuzzCheck(!pathText.contains(delimiter), "the path holds the encoded delimiter \(delimiter)")
        }
        let secondIsSlash =
            path.count >= 2
            && (path[1] == UInt8(ascii: "/")
                || (path.count >= 4 && path[1] == UInt8(ascii: "%") && path[2] == UInt8(ascii: "2")
                    && (path[3] == UInt8(ascii: "F") || path[3] == UInt8(ascii: "f"))))
        fuzzCheck(!secondIsSlash, "link is scheme-relative")
        if let routes = validator.configuration.routes {
            fuzzCheck(
                routes.contains { Reference.pathIsUnder(path, prefix: Array($0.utf8)) },
                "link matches no route"
            )
        }
        checkReduction(bytes, payload: payload)

        let again = link.withUTF8Bytes { validator.validate($0) }
        fuzzCheck(again == .success(link), "the link does not re-validate to itself")
        let rebuilt = bytes.withUnsafeBytes { DeepLink(validatedUTF8: $0) }
        fuzzCheck(rebuilt == link, "DeepLink(validatedUTF8:) differs")
        fuzzCheck(DeepLink(validated: text) == link, "DeepLink(validated:) differs")
        fuzzCheck(!link.hasPathPrefix(bytes: UnsafeRawBufferPointer(start: nil, count: 0)), "an empty prefix matched")
        fuzzCheck(path.withUnsafeBytes { link.hasPathPrefix(bytes: $0) }, "own path is not a prefix")
    }

    /// A path payload keeps everything before `#`; an `https` URL keeps what follows its authority;
    /// either way in canonical form.
    static func checkReduction(_ link: [UInt8], payload: [UInt8]) {
        let beforeFragment = Array(payload.prefix { $0 != UInt8(ascii: "#") })
        if payload.first == UInt8(ascii: "/") {
            fuzzCheck(
                link == Reference.canonical(beforeFragment),
                "a path payload was changed beyond dropping its fragment and canonicalising"
            )
            return
        }
        let scheme = String(decoding: payload.prefix(8), as: UTF8.self).lowercased()
        fuzzCheck(scheme == "https://", "accepted a payload that is neither a path nor https://")
        let afterScheme = beforeFragment.dropFirst(8)
        let rest = Array(afterScheme.drop { $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") })
        let expected = rest.first == UInt8(ascii: "/") ? rest : [UInt8(ascii: "/")] + rest
        fuzzCheck(link == Reference.canonical(expected), "an https payload did not reduce to its path and query")
    }

    static func checkRejected(_ rejection: LinkRejection, payload: [UInt8], isUTF8: Bool) {
        if payload.isEmpty { return fuzzCheck(rejection == .empty, "empty payload: \(rejection)") }
        fuzzCheck(rejection != .empty, "non-empty payload rejected as empty")
        fuzzCheck((rejection == .invalidUTF8) == !isUTF8, "invalidUTF8 disagrees with UTF-8 validation")
        guard isUTF8 else { return }
        let hasRawControl = String(decoding: payload, as: UTF8.self).unicodeScalars.contains {
            Reference.isControl($0.value)
        }
        if hasRawControl { fuzzCheck(rejection == .controlCharacter, "raw control byte rejected as \(rejection)") }
        if !hasRawControl, rejection == .controlCharacter {
            let unescaped = Reference.percentUnescaped(payload)
            fuzzCheck(
                unescaped.contains { $0 < 0x20 || $0 == 0x7F } || unescaped.contains(0xC2),
                "controlCharacter without a control byte"
            )
        }
        if rejection == .backslash {
            fuzzCheck(Reference.percentUnescaped(payload).contains(UInt8(ascii: "\\")), "backslash without one")
        }
        if rejection == .malformedPercentEscape {
            let malformed = payload.indices.contains { index in
                payload[index] == UInt8(ascii: "%")
                    && !(index + 2 < payload.count && Reference.hexDigit(payload[index + 1]) != nil
                        && Reference.hexDigit(payload[index + 2]) != nil)
            }
            fuzzCheck(malformed, "malformedPercentEscape without a % lacking two hex digits")
        }
        if rejection == .invisibleCharacter {
            let unescaped = String(decoding: Reference.percentUnescaped(payload), as: UTF8.self)
            let raw = String(decoding: payload, as: UTF8.self)
            fuzzCheck(
                raw.unicodeScalars.contains(where: Reference.isInvisible)
                    || unescaped.unicodeScalars.contains(where: Reference.isInvisible),
                "invisibleCharacter without one"
            )
        }
        if rejection == .encodedDelimiter {
            let text = String(decoding: payload, as: UTF8.self).uppercased()
            fuzzCheck(["%2F", "%3F", "%23", "%3B"].contains { text.contains($0) }, "encodedDelimiter without one")
        }
        if payload.first == UInt8(ascii: "/") {
            let structural: [LinkRejection] = [.notAPath, .disallowedScheme, .foreignHost]
            fuzzCheck(!structural.contains(rejection), "a path payload rejected as \(rejection)")
        }
        if rejection == .tooLong {
            fuzzCheck(payload.count > DeepLink.capacity, "tooLong for a payload within capacity")
        }
    }
}
