import DeepLinkCore
import SanitizerTraits
import Testing

/// The canonical form of a link (RFC 3986 percent-encoding normalisation), the content rules that
/// refuse what has no single meaning, and the policy matcher that reads the canonical form.
@Suite(.startsNoThread) struct CanonicalFormTests {
    let validator = TestApp.validator

    func accepted(_ payload: String, _ validator: LinkValidator = TestApp.validator) -> String? {
        guard case .success(let link) = validator.validate(payload) else { return nil }
        return link.string
    }

    func rejection(_ payload: String, _ validator: LinkValidator = TestApp.validator) -> LinkRejection? {
        guard case .failure(let rejection) = validator.validate(payload) else { return nil }
        return rejection
    }

    /// The example app's policy of the harness, restated: `/orders` and `/account` need a login.
    static let standardPolicy: RoutePolicy = {
        do {
            return try RoutePolicy(rules: [
                (prefix: "/orders", requires: .loggedIn), (prefix: "/account", requires: .loggedIn),
                (prefix: "/product", requires: []),
            ])
        } catch {
            preconditionFailure("valid prefixes: \(error)")
        }
    }()

    @Test func unreservedEscapesDecodeAndOtherEscapesAreUppercased() {
        #expect(accepted("/%6Frders/42") == "/orders/42")
        #expect(accepted("/%41%7a%30%2D%2e%5F%7E") == "/Az0-._~")
        #expect(
            accepted("/caf%c3%a9?q=%c3%a9&x=%2f%3f%23%26%3d%2b%25") == "/caf%C3%A9?q=%C3%A9&x=%2F%3F%23%26%3D%2B%25"
        )
        #expect(accepted("/a%20b") == "/a%20b", "a space stays encoded: it is not unreserved")
        #expect(accepted("/file%2Ejson") == "/file.json", "an encoded dot inside a segment is a dot")
        #expect(accepted("/a%252F") == "/a%252F", "an escaped percent sign is literal")
        #expect(accepted("https://nerdy.pro/%6Frders?%6B=%76") == "/orders?k=v")
        #expect(accepted("/Orders/AbC") == "/Orders/AbC", "paths are case-sensitive: case is kept")
    }

    @Test func canonicalLengthDecidesTooLong() {
        // 512 bytes once `%61` is read as `a`; 514 as written.
        let payload = "/" + String(repeating: "a", count: DeepLink.capacity - 2) + "%61"
        #expect(accepted(payload)?.utf8.count == DeepLink.capacity)
        #expect(rejection("/" + String(repeating: "a", count: DeepLink.capacity)) == .tooLong)
    }

    @Test func encodedDelimitersInThePathAreRefused() {
        for payload in [
            "/orders%2F42", "/orders%2f42", "/orders%3F42", "/orders%3fid=1", "/orders%2342", "/orders%3Bx/42",
            "https://nerdy.pro/a%2Fb", "/a/b%2F",
        ] {
            #expect(rejection(payload) == .encodedDelimiter, "\(payload)")
        }
        #expect(rejection("/orders%5C42") == .backslash, "an encoded backslash keeps its own name")
        #expect(rejection("/%2Fevil") == .schemeRelative, "at the start it reads as another host")
        #expect(rejection("/a%2F..%2Fb") == .dotSegment, "a dot segment is named before the delimiter")
        #expect(accepted("/search?next=%2Forders%3Fx%23y%3B") == "/search?next=%2Forders%3Fx%23y%3B")
    }

    @Test func malformedPercentEscapesAreRefused() {
        for payload in ["/orders%", "/orders/50%", "/a%4", "/a%zz", "/a%g0", "/a?x=%", "/a#%", "%", "/a%%41"] {
            #expect(rejection(payload) == .malformedPercentEscape, "\(payload)")
        }
        #expect(rejection("/a%0A%") == .controlCharacter, "content reasons come first")
        #expect(accepted("/a%25") == "/a%25")
    }

    @Test func invisibleCharactersAreRefusedRawAndEncoded() {
        let listed: [UInt32] = [
            0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x200B, 0x200C, 0x200D,
            0x200E, 0x200F, 0x2060, 0xFEFF, 0x061C, 0x00AD, 0xE0041,
        ]
        for value in listed {
            let scalar = Unicode.Scalar(value)!
            let raw = "/orders/42" + String(scalar)
            #expect(rejection(raw) == .invisibleCharacter, "raw U+\(String(value, radix: 16))")
            let encoded = "/orders/" + String(scalar).utf8.map { "%" + hex($0) }.joined() + "42"
            #expect(rejection(encoded) == .invisibleCharacter, "\(encoded)")
            #expect(rejection("/a?q=" + String(scalar)) == .invisibleCharacter, "in the query too")
        }
        #expect(rejection("/orders/%e2%80%ae") == .invisibleCharacter, "lowercase escapes too")
        #expect(rejection("/a\u{202E}\n") == .controlCharacter)
        #expect(rejection("/a\u{202E}\\") == .invisibleCharacter, "named before the backslash")
        // Neighbours that are visible stay: U+2010 (hyphen), U+FE10, U+00AE, an encoded lead alone.
        for payload in [
            "/a\u{2010}", "/a\u{FE10}", "/a\u{AE}", "/a%E2%80", "/a%E2/%80%AE", "/%C2%A9%41", "/a%E0%82%AD",
        ] {
            #expect(rejection(payload) != .invisibleCharacter, "\(payload)")
        }
        #expect(rejection("/%C2%AD") == .invisibleCharacter, "U+00AD soft hyphen, encoded")
    }

    /// The validator's table is exactly Unicode's Default_Ignorable_Code_Point plus U+FFF9…U+FFFB,
    /// as the standard library knows it (a differing Unicode version would show here).
    @Test func invisibleSetIsDefaultIgnorablePlusAnnotationControls() {
        var mismatches: [String] = []
        for value in UInt32(0x80)...0x10_FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let expected = scalar.properties.isDefaultIgnorableCodePoint || (0xFFF9...0xFFFB).contains(value)
            let rejected = rejection("/" + String(scalar)) == .invisibleCharacter
            if expected != rejected, mismatches.count < 10 { mismatches.append(String(value, radix: 16)) }
        }
        #expect(mismatches.isEmpty, "U+\(mismatches)")
    }

    /// Every accepted link is a fixed point: validating its bytes again gives the same link, and
    /// the canonical form of a payload does not depend on how its unreserved bytes were spelled.
    @Test func acceptedLinksAreFixedPoints() {
        var random = SystemRandomNumberGenerator()
        let alphabet = Array("/aZ0-._~%2F%2e%41%61%c3%a9%E2%80%AE%20?&=#;:@!$'()*+,".utf8)
        var accepted = 0
        for _ in 0..<20_000 {
            let length = Int.random(in: 1...24, using: &random)
            let payload = [UInt8(ascii: "/")] + (0..<length).map { _ in alphabet.randomElement(using: &random)! }
            guard case .success(let link) = payload.withUnsafeBytes({ validator.validate($0) }) else { continue }
            accepted += 1
            let again = link.withUTF8Bytes { validator.validate($0) }
            #expect(again == .success(link), "\(String(decoding: payload, as: UTF8.self))")
            // Spell every unreserved byte of the canonical link as an escape: same link.
            let spelled = link.withUTF8Bytes { bytes in
                var output: [UInt8] = []
                var index = 0
                while index < bytes.count {
                    let byte = bytes[index]
                    if byte == UInt8(ascii: "%") {  // an escape stays as it is
                        output += bytes[index..<index + 3]
                        index += 3
                        continue
                    }
                    let unreserved =
                        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                        || (byte >= 0x30 && byte <= 0x39)
                        || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
                    output += unreserved ? Array(("%" + hex(byte).lowercased()).utf8) : [byte]
                    index += 1
                }
                return output
            }
            #expect(spelled.withUnsafeBytes { validator.validate($0) } == .success(link))
        }
        #expect(accepted > 1_000, "the generator reaches the accepted space (\(accepted))")
    }

    /// The four gate bypasses, and their kin: each is refused or needs `loggedIn`.
    @Test func gateBypassesAreRefusedOrGated() {
        let gated: GateEvents = [.appReady, .loggedIn]
        for payload in [
            "/%6Frders/42", "/orders?id=42", "/orders", "/Orders/42", "/ORDERS", "/orders/", "/orders;x/42",
            "/%6f%72%64%65%72%73", "https://nerdy.pro/%6Frders", "/account%3Fx=1/..", "/orders?%2F42",
        ] {
            switch validator.validate(payload) {
            case .success(let link):
                #expect(Self.standardPolicy.requirements(for: link) == gated, "\(payload) → \(link)")
            case .failure(let rejection):
                #expect(payload.hasPrefix("/account"), "\(payload) refused as \(rejection)")
            }
        }
        #expect(rejection("/orders%2F42") == .encodedDelimiter)
        for open in ["/ordersfoo", "/order", "/product/42", "/orders-archive", "/%6Frdersx"] {
            let link = try? validator.validate(open).get()
            #expect(link.map { Self.standardPolicy.requirements(for: $0) } == .appReady, "\(open)")
        }
    }

    @Test func policyPrefixesAreCanonicalAndTrailingSlashNamesTheSameRule() throws {
        let policy = try RoutePolicy(rules: [(prefix: "/%6Frders/", requires: .loggedIn)])
        #expect(policy.rules.map(\.prefix.string) == ["/orders"])
        #expect(policy.requirements(for: try validator.validate("/orders").get()) == [.appReady, .loggedIn])
        #expect(try RoutePolicy(rules: [(prefix: "/", requires: .loggedIn)]).rules.map(\.prefix.string) == ["/"])
        for duplicate in [["/orders", "/orders/"], ["/orders", "/Orders"], ["/orders", "/%6frders"]] {
            #expect(throws: RoutePolicy.PrefixError.duplicatePrefix(duplicate[1])) {
                try RoutePolicy(rules: duplicate.map { (prefix: $0, requires: .loggedIn) })
            }
        }
        for invalid in ["/a%2Fb", "/a/../b", "/a%", "/a#x", "/a\u{200B}", "orders", ""] {
            #expect(throws: RoutePolicy.PrefixError.invalidPrefix(invalid)) {
                try RoutePolicy(rules: [(prefix: invalid, requires: .loggedIn)])
            }
        }
        // `hasPathPrefix` is the same rule.
        let link = try validator.validate("/Orders;p/42?x").get()
        #expect(link.hasPathPrefix("/orders/") && link.hasPathPrefix("/orders") && link.hasPathPrefix("/"))
        #expect(!link.hasPathPrefix("/orders/42") && !link.hasPathPrefix("/ord"))
    }

    func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }
}
