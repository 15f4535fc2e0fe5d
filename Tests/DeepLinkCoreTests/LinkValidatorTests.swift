import DeepLinkCore
import DeepLinkCoreTestSupport
import Testing

@Suite struct LinkValidatorTests {
    let validator = TestApp.validator

    /// The rejection for `payload` given as raw bytes (the referrer parser's form).
    func rejection(_ payload: [UInt8], _ validator: LinkValidator = TestApp.validator) -> LinkRejection? {
        let result = payload.withUnsafeBytes { validator.validate($0) }
        guard case .failure(let reason) = result else { return nil }
        return reason
    }

    /// The rejection for `payload`, checked through both entry points, which must agree.
    func rejection(_ payload: String, _ validator: LinkValidator = TestApp.validator) -> LinkRejection? {
        let fromString = validator.validate(payload)
        let fromBytes = Array(payload.utf8).withUnsafeBytes { validator.validate($0) }
        #expect(fromString == fromBytes, "string and byte entry points disagree on \(payload.debugDescription)")
        expectInPlaceAgrees(payload, with: fromBytes, validator)
        guard case .failure(let reason) = fromString else { return nil }
        return reason
    }

    /// The canonical link for an accepted `payload`, or `nil` when it was rejected.
    func accepted(_ payload: String, _ validator: LinkValidator = TestApp.validator) -> String? {
        let result = validator.validate(payload)
        expectInPlaceAgrees(payload, with: result, validator)
        guard case .success(let link) = result else { return nil }
        return link.string
    }

    /// `validate(_:into:)` writes the same link (over a longer one, so stale bytes would show) or
    /// returns the same rejection, leaving the link untouched.
    func expectInPlaceAgrees(
        _ payload: String,
        with result: Result<DeepLink, LinkRejection>,
        _ validator: LinkValidator
    ) {
        let before = DeepLink(validated: "/a-much-longer-link-than-most/that/was-there-before?with=query")!
        var link = before
        let rejection = Array(payload.utf8).withUnsafeBytes { validator.validate($0, into: &link) }
        switch result {
        case .success(let expected):
            #expect(rejection == nil)
            #expect(link == expected && link.string == expected.string && link.path == expected.path)
            #expect(link.hashValue == expected.hashValue)
        case .failure(let reason):
            #expect(rejection == reason)
            #expect(link == before)
        }
    }

    // MARK: - One test per reason

    @Test func empty() {
        #expect(rejection("") == .empty)
        #expect(rejection([UInt8]()) == .empty)
    }

    @Test func tooLongCountsTheReducedLink() {
        let longest = "/" + String(repeating: "a", count: DeepLink.capacity - 1)
        #expect(accepted(longest) == longest)
        #expect(rejection(longest + "b") == .tooLong)
        #expect(rejection("/a?" + String(repeating: "q", count: DeepLink.capacity)) == .tooLong)
        #expect(rejection(String(repeating: "/x", count: 1_000)) == .tooLong)
        // The fragment is dropped before measuring, the host is not part of the link either.
        #expect(accepted(longest + "#" + String(repeating: "f", count: 600)) == longest)
        #expect(accepted("https://www.nerdy.pro" + longest) == longest)
        #expect(rejection("https://www.nerdy.pro" + longest + "b") == .tooLong)
        // `https://host?q` reduces to `/?q`: the implied slash counts.
        let query = "?" + String(repeating: "q", count: DeepLink.capacity - 2)
        #expect(accepted("https://nerdy.pro" + query) == "/" + query)
        #expect(rejection("https://nerdy.pro" + query + "q") == .tooLong)
    }

    @Test func notAPath() {
        for payload in [
            "product/42", "?x=1", "#top", "42", " /product/42", "%2Fproduct", ".", "..", "./a", "../a",
            "https:/product", "https:product", "https:", "-scheme:x", "1http://nerdy.pro/", "é:x",
        ] {
            #expect(rejection(payload) == .notAPath, "\(payload)")
        }
    }

    @Test func schemeRelative() {
        for payload in [
            "//evil.example", "//evil.example/product/42", "///evil", "/%2Fevil.example", "/%2fevil.example",
            "https://nerdy.pro//evil.example", "https://nerdy.pro/%2F/evil.example", "//", "/%2f",
        ] {
            #expect(rejection(payload) == .schemeRelative, "\(payload)")
        }
        #expect(accepted("/a//b") == "/a//b", "a doubled slash later in the path is not scheme-relative")
        #expect(rejection("/a/%2Fb") == .encodedDelimiter, "an encoded slash later in the path is refused")
    }

    @Test func foreignHost() {
        for payload in [
            "https://evil.example/product/42", "https://nerdy.pro.evil.example/", "https://xnerdy.pro/",
            "https://nerdy.pr/", "https://user@nerdy.pro/product", "https://nerdy.pro@evil.example/",
            "https://nerdy.pro:8443/", "https://nerdy.pro:4430/", "https://nerdy.pro:44/", "https://nerdy.pro:0443/",
            "https:///product/42", "https://evil.example?nerdy.pro", "https://evil.example#nerdy.pro",
            "https://nerdy.pro./", "https://%6eerdy.pro/", "https://[::1]/", "https://",
        ] {
            #expect(rejection(payload) == .foreignHost, "\(payload)")
        }
        let noHosts = LinkValidator(configuration: .init(allowedHosts: []))
        #expect(rejection("https://nerdy.pro/product/42", noHosts) == .foreignHost)
        #expect(accepted("/product/42", noHosts) == "/product/42")
    }

    @Test func disallowedScheme() {
        for payload in [
            "javascript:alert(1)", "JavaScript:alert(document.cookie)", "javascript://nerdy.pro/%250Aalert(1)",
            "intent://scan/#Intent;scheme=zxing;package=com.google.zxing.client.android;end",
            "http://nerdy.pro/product/42", "HTTP://nerdy.pro/", "data:text/html,<script>alert(1)</script>",
            "file:///etc/passwd", "ftp://nerdy.pro/", "nerdy:product/42", "httpss://nerdy.pro/", "http:/product",
            "vbscript:msgbox", "a+b-c.d:x", "localhost:8080/product",
        ] {
            #expect(rejection(payload) == .disallowedScheme, "\(payload)")
        }
    }

    @Test func controlCharacter() {
        for payload in [
            "/product/42\n", "/a\u{0}b", "\u{1}/a", "/a\u{7F}", "/a\u{80}", "/a\u{85}", "/a\u{9F}", "/a\tb",
            "/a\r\nSet-Cookie: x", "/a%0a", "/a%0D%0A", "/a%00", "/a%7f", "/a%1F", "/a%C2%85", "/a%c2%80",
            "/a?q=%0a", "/a#\t", "https://nerdy.pro/\u{8}", "javascript:\nalert(1)",
        ] {
            #expect(rejection(payload) == .controlCharacter, "\(payload.debugDescription)")
        }
        // Neighbours that are fine: U+00A0 and U+00C2 raw, `%C2` followed by a printable escape.
        #expect(accepted("/a\u{A0}\u{C2}") != nil)
        #expect(accepted("/a%C2%A0") == "/a%C2%A0")
        #expect(accepted("/a%C2/%85") == "/a%C2/%85", "an encoded continuation alone is not a C1 character")
        #expect(accepted("/a%20b%7E") == "/a%20b~", "the canonical form decodes the unreserved `~`")
    }

    @Test func invalidUTF8() {
        let prefix = Array("/p/".utf8)
        for tail: [UInt8] in [
            [0xFF], [0xFE], [0x80], [0xBF], [0xC3, 0x28], [0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x80, 0xAF],
            [0xE0, 0x9F, 0xBF], [0xF0, 0x80, 0x80, 0xAF], [0xF0, 0x8F, 0xBF, 0xBF], [0xED, 0xA0, 0x80],
            [0xED, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80],
            [0xE2, 0x82], [0xE2], [0xF0, 0x9F, 0x98], [0xE2, 0x28, 0xA1], [0xF0, 0x9F, 0x28, 0x80],
            [0xE2, 0x82, 0xAC, 0x80],
        ] {
            #expect(rejection(prefix + tail) == .invalidUTF8, "\(tail)")
            #expect(rejection(tail + prefix) == .invalidUTF8, "\(tail) first")
        }
        // The extremes of each valid form pass.
        for scalar: [UInt8] in [
            [0xC2, 0xA0], [0xDF, 0xBF], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80],
            [0xEF, 0xBF, 0xBF], [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF],
        ] {
            #expect(rejection(prefix + scalar) == nil, "\(scalar)")
        }
    }

    @Test func dotSegment() {
        for payload in [
            "/..", "/.", "/../admin", "/./admin", "/a/./b", "/a/../b", "/a/..", "/a/.", "/a/..?x=1", "/a/..#f",
            "/%2e%2e/admin", "/%2E%2e/admin", "/%2e/admin", "/.%2e/admin", "/%2e./admin", "/a/%2E%2E",
            "/a%2f..%2fb", "/a%2F%2e%2e", "/..;/admin", "/a/..;jsessionid=1/b", "/.;x", "https://nerdy.pro/../admin",
            "https://nerdy.pro/a/%2e%2e", "/a/../../../../etc/passwd",
        ] {
            #expect(rejection(payload) == .dotSegment, "\(payload)")
        }
        for payload in [
            "/...", "/.a", "/a.", "/a..", "/..a", "/a/b..c", "/.well-known/x", "/%2e%2e%2e", "/%2ea",
            "/a?next=/../x", "/a?p=%2e%2e", "/a/%252e%252e", "/;..",
        ] {
            #expect(accepted(payload) != nil, "\(payload) is not a dot segment")
        }
        #expect(rejection("/%2e%2") == .malformedPercentEscape, "an escape cut short is not a dot")
    }

    @Test func backslash() {
        for payload in [
            "/a\\b", "\\\\evil.example", "\\/evil.example", "/\\evil.example", "/a%5cb", "/a%5Cb", "%5c%5cevil",
            "/a?q=\\", "/a?next=%5C%5Cevil", "https://nerdy.pro\\@evil.example/", "https://nerdy.pro/\\evil",
        ] {
            #expect(rejection(payload) == .backslash, "\(payload)")
        }
        #expect(accepted("/a%255cb") == "/a%255cb", "an escaped percent sign is literal: decoded once only")
    }

    @Test func unknownRoute() {
        let routed = LinkValidator(
            configuration: .init(allowedHosts: TestApp.hosts, routes: ["/product/", "/orders", "/"])
        )
        let strict = LinkValidator(configuration: .init(allowedHosts: TestApp.hosts, routes: ["/product/", "/orders"]))
        for payload in ["/settings", "/productivity", "/orders2", "/", "/?x=1", "/ordersfoo", "/orders%41"] {
            #expect(rejection(payload, strict) == .unknownRoute, "\(payload)")
        }
        // The route `/product/` once excluded `/product` and case mattered; now a trailing `/` names
        // the same rule, ASCII case is folded and unreserved escapes compare as their characters.
        for payload in ["/product", "/Orders/7", "/ORDERS", "/%6Frders/7", "/orders;x/7", "/Product?x=1"] {
            #expect(accepted(payload, strict) != nil, "\(payload)")
        }
        #expect(accepted("/%6Frders/7", strict) == "/orders/7")
        #expect(rejection("https://nerdy.pro/settings?x=/product/", strict) == .unknownRoute)
        #expect(rejection("https://nerdy.pro", strict) == .unknownRoute)
        for payload in ["/product/42", "/product/", "/orders", "/orders/7", "/orders?x=1", "/orders#top"] {
            #expect(accepted(payload, strict) != nil, "\(payload)")
        }
        #expect(accepted("https://nerdy.pro/product/42?ref=share", strict) == "/product/42?ref=share")
        #expect(accepted("/settings", routed) == "/settings", "the `/` route matches everything")
        #expect(accepted("https://nerdy.pro?x=1", routed) == "/?x=1")
        let none = LinkValidator(configuration: .init(allowedHosts: TestApp.hosts, routes: []))
        #expect(rejection("/product/42", none) == .unknownRoute, "an empty route table routes nothing")
    }

    // MARK: - Acceptance and reduction

    @Test func acceptsAppInternalPaths() throws {
        for payload in [
            "/", "/product/42", "/product/42?ref=share", "/search?q=a+b&c=%20&d=%2F..%2F", "/caf\u{E9}/\u{1F600}",
            "/a//b", "/a/b/", "/a?", "/a;b=c", "/a?x=a:b@c//d", "/a%20b", "/%C3%A9", "/a?x=%2F%3F%23%26",
        ] {
            #expect(accepted(payload) == payload, "\(payload)")
        }
        let link = try validator.validate("/product/42?ref=share#reviews").get()
        #expect(link.string == "/product/42?ref=share")
        #expect(link.path == "/product/42")
        #expect(link.hasQuery)
        #expect(link.hasPathPrefix("/product/"))
        #expect(accepted("/#frag") == "/")
        #expect(accepted("/a?#") == "/a?")
        #expect(accepted("/a?b#c?d") == "/a?b")
    }

    /// Hosts of eight bytes or more are compared a word at a time: every byte of them counts,
    /// case-folded only for ASCII letters (a non-ASCII byte whose low seven bits spell a capital is
    /// not one), at lengths below, at and above a multiple of eight.
    @Test func longHostsCompareEveryByte() {
        for host in ["abcdefgh", "nerdy.pro", "links.example.com", "abcdefghijklmnop"] {
            let validator = LinkValidator(configuration: .init(allowedHosts: [host]))
            let bytes = Array(host.utf8)
            #expect(accepted("https://\(host.uppercased())/a", validator) == "/a", "\(host)")
            #expect(accepted("https://\(host):443/a", validator) == "/a", "\(host)")
            #expect(rejection("https://\(host):443@\(host)/a", validator) == .foreignHost, "\(host)")
            #expect(rejection("https://\(host)x/a", validator) == .foreignHost, "\(host)")
            #expect(rejection("https://x\(host)/a", validator) == .foreignHost, "\(host)")
            for index in bytes.indices {
                let otherLetter: UInt8 = bytes[index] == UInt8(ascii: "z") ? UInt8(ascii: "a") : UInt8(ascii: "z")
                for replacement in [UInt8(ascii: "_"), UInt8(ascii: "-"), otherLetter] {
                    var changed = bytes
                    changed[index] = replacement
                    let payload = Array("https://".utf8) + changed + Array("/a".utf8)
                    #expect(rejection(payload, validator) == .foreignHost, "\(host) at \(index)")
                }
            }
        }
        // A configured host beyond ASCII: its letters other than ASCII ones are not case-folded.
        let accented = LinkValidator(configuration: .init(allowedHosts: ["\u{E9}clair.example"]))
        #expect(accepted("https://\u{E9}CLAIR.example/a", accented) == "/a")
        #expect(rejection("https://\u{C9}clair.example/a", accented) == .foreignHost)
    }

    @Test func reducesAllowedHTTPSURLsToPathAndQuery() throws {
        #expect(accepted("https://nerdy.pro/product/42?ref=share#top") == "/product/42?ref=share")
        #expect(accepted("HTTPS://NERDY.PRO/Product/42") == "/Product/42", "scheme and host only are case-folded")
        #expect(accepted("https://WWW.Nerdy.Pro:443/a") == "/a")
        #expect(accepted("https://nerdy.pro:/a") == "/a", "an empty port is the default port")
        #expect(accepted("https://nerdy.pro") == "/")
        #expect(accepted("https://nerdy.pro/") == "/")
        #expect(accepted("https://nerdy.pro?x=1") == "/?x=1")
        #expect(accepted("https://nerdy.pro#top") == "/")
        #expect(accepted("https://nerdy.pro/a?next=https://evil.example") == "/a?next=https://evil.example")
        let link = try validator.validate("https://nerdy.pro?x=1").get()
        #expect(link.path == "/")
        #expect(link.hasQuery)

        let custom = LinkValidator(configuration: .init(allowedHosts: ["Example.COM", "links.example.com"]))
        #expect(accepted("https://example.com/a", custom) == "/a")
        #expect(accepted("https://LINKS.example.com/b?c", custom) == "/b?c")
        #expect(rejection("https://nerdy.pro/a", custom) == .foreignHost)
        #expect(custom.configuration.allowedHosts == ["Example.COM", "links.example.com"])
    }

    @Test func nothingBeyondPathsUnlessTheAppSaysSo() {
        let bare = LinkValidator(configuration: .init(allowedHosts: []))
        #expect(accepted("/product/42", bare) == "/product/42")
        #expect(rejection("https://nerdy.pro/product/42", bare) == .foreignHost)
        #expect(rejection("https://appclip.apple.com/id?p=pro.nerdy.app.Clip", bare) == .foreignHost)
        #expect(rejection("myapp://product/42", bare) == .disallowedScheme)
        #expect(bare.configuration.customSchemes.isEmpty)
        #expect(!bare.configuration.acceptsAppClipDefaultLinks)
    }

    @Test func appClipDefaultLinksAreAnOptIn() {
        let clip = LinkValidator(configuration: .init(allowedHosts: [], acceptsAppClipDefaultLinks: true))
        #expect(
            accepted("https://appclip.apple.com/id?p=pro.nerdy.app.Clip&product=42", clip)
                == "/id?p=pro.nerdy.app.Clip&product=42"
        )
        #expect(accepted("https://AppClip.Apple.com:443/id?p=x#top", clip) == "/id?p=x")
        #expect(rejection("https://appclip.apple.com.evil.example/id", clip) == .foreignHost)
        #expect(rejection("https://nerdy.pro/product/42", clip) == .foreignHost, "the opt-in adds one host only")
        #expect(rejection("https://appclip.apple.com//evil.example", clip) == .schemeRelative)
    }

    @Test func customSchemesAreAnOptIn() {
        let app = LinkValidator(configuration: .init(allowedHosts: [], customSchemes: ["myapp", "https"]))
        #expect(accepted("myapp://product/42", app) == "/product/42")
        #expect(accepted("MyApp://product/42?ref=share#top", app) == "/product/42?ref=share")
        #expect(accepted("myapp:///product/42", app) == "/product/42")
        #expect(accepted("myapp://", app) == "/")
        #expect(accepted("myapp://?x=1", app) == "/?x=1")
        #expect(rejection("myapp:product/42", app) == .notAPath, "a custom scheme needs `//`")
        #expect(rejection("myapp:////evil.example", app) == .schemeRelative)
        #expect(rejection("myapp://%2Fevil.example", app) == .schemeRelative)
        #expect(rejection("myapp://../admin", app) == .dotSegment)
        #expect(rejection("myapp://product/%2e%2e/admin", app) == .dotSegment)
        #expect(rejection("otherapp://product/42", app) == .disallowedScheme)
        #expect(rejection("javascript:alert(1)", app) == .disallowedScheme)
        #expect(rejection("https://evil.example/x", app) == .foreignHost, "https is never a custom scheme")
        let routed = LinkValidator(
            configuration: .init(allowedHosts: [], customSchemes: ["myapp"], routes: ["/product"])
        )
        #expect(accepted("myapp://product/42", routed) == "/product/42")
        #expect(rejection("myapp://productivity", routed) == .unknownRoute)
    }

    // MARK: - Precedence

    @Test func precedenceListsEveryReasonOnce() {
        #expect(LinkRejection.precedence.count == LinkRejection.allCases.count)
        #expect(Set(LinkRejection.precedence) == Set(LinkRejection.allCases))
        let names = LinkRejection.allCases.map(\.name)
        #expect(
            names == [
                "empty", "tooLong", "notAPath", "schemeRelative", "foreignHost", "disallowedScheme",
                "controlCharacter", "invalidUTF8", "dotSegment", "backslash", "unknownRoute",
                "malformedPercentEscape", "invisibleCharacter", "encodedDelimiter", "invalidAccount",
                // A SignedLinkVerifier's, after validation.
                "missingSignature", "badSignature", "unknownKey", "expiredSignature", "replayed",
            ]
        )
        // The description names the reason first, then says what to do.
        for rejection in LinkRejection.allCases {
            #expect("\(rejection)".hasPrefix(rejection.name + ": "), "\(rejection.name)")
            #expect("\(rejection)".count > rejection.name.count + 20, "\(rejection.name)")
        }
    }

    @Test func reportsTheFirstReasonByPrecedence() {
        let long = String(repeating: "a", count: DeepLink.capacity)
        let strict = LinkValidator(configuration: .init(allowedHosts: TestApp.hosts, routes: ["/product/"]))
        // invalidUTF8 before everything else, wherever the bad byte is.
        #expect(rejection([0x00, 0x5C, 0x2F, 0x2F, 0xFF]) == .invalidUTF8)
        #expect(rejection(Array("javascript:\\\n".utf8) + [0xC0, 0x80]) == .invalidUTF8)
        // controlCharacter before backslash and every structural reason.
        #expect(rejection("\\\\evil\n") == .controlCharacter)
        #expect(rejection("javascript:alert(1)%0A") == .controlCharacter)
        #expect(rejection("//evil.example/%00") == .controlCharacter)
        #expect(rejection("/../\u{85}") == .controlCharacter)
        // backslash before structure.
        #expect(rejection("//evil\\") == .backslash)
        #expect(rejection("http:\\\\evil") == .backslash)
        #expect(rejection("https://evil.example/%5c") == .backslash)
        // Structure before dot segments, length and routes.
        #expect(rejection("//../\(long)", strict) == .schemeRelative)
        #expect(rejection("https://evil.example/../\(long)", strict) == .foreignHost)
        #expect(rejection("http://nerdy.pro/../\(long)", strict) == .disallowedScheme)
        #expect(rejection("../\(long)", strict) == .notAPath)
        #expect(rejection("https://nerdy.pro//../", strict) == .schemeRelative)
        // dotSegment before tooLong and unknownRoute; tooLong before unknownRoute.
        #expect(rejection("/../\(long)", strict) == .dotSegment)
        #expect(rejection("/settings/\(long)", strict) == .tooLong)
        #expect(rejection("/settings", strict) == .unknownRoute)
    }

    // MARK: - Allocation

    @Test func validatingBytesAllocatesNothing() throws {
        guard !Sanitizer.isActive else { return }
        #expect(AllocationCounter.isJemallocActive)
        let acceptedPayloads = [
            "/product/42?ref=share", "https://nerdy.pro/orders/7?x=1#top", "https://www.nerdy.pro/a",
            "https://NERDY.pro:443/a?q", "/a/caf\u{E9}",
        ]
        let rejectedPayloads = [
            "//evil.example", "javascript:alert(1)", "/a/%2e%2e/b", "/a%5cb", "/a%0a", "https://evil.example/",
            "product/42", "/settings", "/" + String(repeating: "x", count: 600), "", "https://NERDY.pro:443?q",
        ]
        let corpus = (acceptedPayloads + rejectedPayloads).map { Array($0.utf8) } + [[0x2F, 0xED, 0xA0, 0x80]]
        let validator = LinkValidator(
            configuration: .init(allowedHosts: TestApp.hosts, routes: ["/product/", "/orders/", "/a"])
        )
        let buffers = corpus.map { bytes in
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 1)
            bytes.withUnsafeBytes { buffer.copyMemory(from: $0) }
            return UnsafeRawBufferPointer(rebasing: buffer[0..<bytes.count])
        }
        defer { for buffer in buffers { buffer.deallocate() } }
        // Warm-up: the runtime's one-time work on first use (type metadata) is not the validator's.
        for buffer in buffers { _ = validator.validate(buffer) }
        var accepted = 0
        var rejected = 0
        var allocatingPayloads: [String] = []
        for (buffer, bytes) in zip(buffers, corpus) {
            let allocated = AllocationCounter.bytesAllocated {
                // A `while` loop: `for … in` allocates an iterator in debug builds.
                var round = 0
                while round < 1_000 {
                    switch validator.validate(buffer) {
                    case .success(let link): accepted &+= link.utf8Count > 0 ? 1 : 0
                    case .failure: rejected &+= 1
                    }
                    round += 1
                }
            }
            if allocated != 0 {
                allocatingPayloads.append("\(allocated) B: \(bytes)")
            }
        }
        #expect(allocatingPayloads.isEmpty, "1,000 validations allocated: \(allocatingPayloads)")
        #expect(accepted == acceptedPayloads.count * 1_000)
        #expect(rejected == (corpus.count - acceptedPayloads.count) * 1_000)
    }

    // MARK: - Randomized

    @Test func randomPayloadsNeverTrapAndAcceptedLinksKeepTheInvariants() {
        var generator = SeededGenerator(seed: 0x5EED_D11C)
        let alphabet =
            Array("/..%%2eE5cCfF0aA?#:@\\;xyz".utf8) + [0x00, 0x0A, 0x7F, 0x80, 0x85, 0xC2, 0xC3, 0xA9, 0xED, 0xF4]
        let prefixes = ["", "/", "https://nerdy.pro", "https://nerdy.pro/", "//", "javascript:", "/a/"].map {
            Array($0.utf8)
        }
        let iterations = 100_000
        var acceptedCount = 0
        var reasons: Set<LinkRejection> = []
        for _ in 0..<iterations {
            var payload = prefixes[Int(generator.next() % UInt64(prefixes.count))]
            let length = Int(generator.next() % 24)
            for _ in 0..<length {
                let roll = generator.next()
                payload.append(
                    roll & 3 == 0
                        ? UInt8(truncatingIfNeeded: roll >> 8) : alphabet[Int((roll >> 8) % UInt64(alphabet.count))]
                )
            }
            let result = payload.withUnsafeBytes { validator.validate($0) }
            switch result {
            case .failure(let reason):
                reasons.insert(reason)
            case .success(let link):
                acceptedCount += 1
                let problem = invariantViolation(link.withUTF8Bytes { Array($0) })
                #expect(problem == nil, "\(payload) -> \(link): \(problem ?? "")")
                if let text = String(validating: payload, as: UTF8.self) {
                    #expect(validator.validate(text) == result)
                }
            }
        }
        #expect(acceptedCount > iterations / 100, "the generator should reach accepted links too")
        #expect(reasons.isSuperset(of: [.invalidUTF8, .controlCharacter, .backslash, .dotSegment, .schemeRelative]))
    }

    /// What an accepted link must never be, checked independently of the validator.
    func invariantViolation(_ bytes: [UInt8]) -> String? {
        guard let text = String(validating: bytes, as: UTF8.self) else { return "invalid UTF-8" }
        guard bytes.first == UInt8(ascii: "/") else { return "does not start with /" }
        guard bytes.count <= DeepLink.capacity else { return "too long" }
        for scalar in text.unicodeScalars where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
            return "control character"
        }
        let lowered = text.lowercased()
        if lowered.contains("\\") || lowered.contains("%5c") { return "backslash" }
        let hex = Array("0123456789abcdef".utf8)
        let lowerBytes = Array(lowered.utf8)
        for index in lowerBytes.indices.dropLast(2) where lowerBytes[index] == UInt8(ascii: "%") {
            guard let high = hex.firstIndex(of: lowerBytes[index + 1]),
                let low = hex.firstIndex(of: lowerBytes[index + 2])
            else { continue }
            if high < 2 || (high == 7 && low == 15) { return "encoded control" }
        }
        let path = lowered.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        if path.hasPrefix("//") || path.hasPrefix("/%2f") { return "scheme-relative" }
        let segments = path.replacing("%2f", with: "/").split(separator: "/", omittingEmptySubsequences: false)
        for segment in segments {
            let name = segment.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
                .replacing("%2e", with: ".")
            if name == "." || name == ".." { return "dot segment" }
        }
        return nil
    }

}
