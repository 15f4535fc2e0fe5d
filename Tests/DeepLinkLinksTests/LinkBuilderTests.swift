import DeepLinkCore
import DeepLinkCoreTestSupport
import DeepLinkLinks
import Foundation
import Testing

/// Random links from the validator's accepted space: path segments of any printable ASCII, valid
/// escapes and multi-byte UTF-8, and an optional query.
struct LinkSpace {
    var random: SeededGenerator

    static let asciiAlphabet = Array(" !$&'()*+,-.0123456789:;=@ABCXYZ_abcxyz~\"<>^`{|}".utf8)
    static let urlAlphabet = Array("!$&'()*+,-.0123456789:;=@ABCXYZ_abcxyz~".utf8)
    static let multiByte: [[UInt8]] = ["é", "ß", "→", "日本", "🙂"].map { Array($0.utf8) }

    /// A candidate link; `urlSafe` keeps to bytes a URL carries raw.
    mutating func candidate(urlSafe: Bool) -> String {
        var bytes: [UInt8] = []
        for _ in 0..<Int.random(in: 1...5, using: &random) {
            bytes.append(UInt8(ascii: "/"))
            for _ in 0..<Int.random(in: 1...12, using: &random) { appendUnit(to: &bytes, urlSafe: urlSafe) }
        }
        if Bool.random(using: &random) {
            bytes.append(UInt8(ascii: "?"))
            for _ in 0..<Int.random(in: 0...20, using: &random) { appendUnit(to: &bytes, urlSafe: urlSafe) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private mutating func appendUnit(to bytes: inout [UInt8], urlSafe: Bool) {
        switch Int.random(in: 0..<10, using: &random) {
        case 0:
            let hex = Array("0123456789ABCDEFabcdef".utf8)
            bytes += [UInt8(ascii: "%"), hex.randomElement(using: &random)!, hex.randomElement(using: &random)!]
        case 1 where !urlSafe: bytes += Self.multiByte.randomElement(using: &random)!
        default: bytes.append((urlSafe ? Self.urlAlphabet : Self.asciiAlphabet).randomElement(using: &random)!)
        }
    }
}

@Suite struct LinkBuilderTests {
    static let validator = LinkValidator(
        configuration: .init(allowedHosts: ["nerdy.pro"], acceptsAppClipDefaultLinks: true)
    )
    static let builder = LinkBuilder(validator: validator)

    @Test func playURLCarriesTheReferrerEncodedOnce() throws {
        let link = try Self.builder.canonicalLink("/product/42")
        let url = try Self.builder.playStoreURL(package: "pro.nerdy.app", link: link)
        #expect(
            url == "https://play.google.com/store/apps/details?id=pro.nerdy.app&referrer=deeplink%3D%252Fproduct%252F42"
        )
        let referrer = try #require(URLComponents(string: url)?.queryItems?.first { $0.name == "referrer" }?.value)
        #expect(referrer == "deeplink=%2Fproduct%2F42")
    }

    /// For every link the builder makes, the core's parser and validator recover exactly the link
    /// put in: referrers over the whole accepted space, URL forms over its URL-safe part.
    @Test func randomLinksRoundTrip() throws {
        var space = LinkSpace(random: SeededGenerator(seed: 13))
        let parser = ReferrerParser()
        var referrers = 0
        var urls = 0
        for round in 0..<4_000 {
            let urlSafe = round % 2 == 1
            let candidate = space.candidate(urlSafe: urlSafe)
            // The builder takes the validated, canonical link (a candidate with escapes of unreserved
            // characters or lowercase hex is accepted in its canonical spelling).
            guard case .success(let link) = Self.validator.validate(candidate) else { continue }
            let attribution: [(field: LinkAttribution.Field, value: String)] =
                round % 3 == 0 ? [(.utmSource, space.candidate(urlSafe: false)), (.utmMedium, "cpc")] : []
            let referrer = try Self.builder.referrer(for: link, attribution: attribution)
            var found = DeepLink(validated: "/")!
            #expect(parser.verdict(for: referrer, validator: Self.validator, into: &found) == .link, "\(referrer)")
            #expect(found == link, "\(referrer)")
            let play = try Self.builder.playStoreURL(package: "pro.nerdy.app", link: link, attribution: attribution)
            let carried = try #require(URLComponents(string: play)?.queryItems?.first { $0.name == "referrer" }?.value)
            #expect(carried == referrer)
            referrers += 1
            if urlSafe {
                for url in [
                    try Self.builder.universalLink(host: "nerdy.pro", link: link),
                    try Self.builder.appClipURL(host: "nerdy.pro", link: link),
                ] {
                    #expect(Self.validator.validate(url) == .success(link), "\(url)")
                }
                urls += 1
            }
        }
        // The generator must reach the accepted space often, or the property says little.
        #expect(referrers > 1_500)
        #expect(urls > 500)
    }

    @Test func appClipDefaultLinkReducesToItsQuery() throws {
        let url = try Self.builder.appClipDefaultURL(clipBundleID: "pro.nerdy.app.Clip", query: "item=42")
        #expect(url == "https://appclip.apple.com/id?p=pro.nerdy.app.Clip&item=42")
        #expect(Self.validator.validate(url).map(\.string) == .success("/id?p=pro.nerdy.app.Clip&item=42"))
        let strict = LinkBuilder(validator: LinkValidator(configuration: .init(allowedHosts: ["nerdy.pro"])))
        #expect(throws: LinkBuilderError.appClipDefaultLinksNotAccepted) {
            try strict.appClipDefaultURL(clipBundleID: "pro.nerdy.app.Clip")
        }
    }

    /// Limits come from the parser's own configuration: a smaller parser refuses sooner.
    @Test func referrerLimitsAreTheParsers() throws {
        let small = LinkBuilder(
            validator: Self.validator,
            parser: ReferrerParser(configuration: .init(maxInputBytes: 40, maxFields: 2))
        )
        let link = try Self.builder.canonicalLink("/product/" + String(repeating: "a", count: 40))
        #expect(throws: LinkBuilderError.referrerTooLong(length: 62, limit: 40)) { try small.referrer(for: link) }
        let short = try Self.builder.canonicalLink("/p")
        #expect(throws: LinkBuilderError.tooManyFields(count: 3, limit: 2)) {
            try small.referrer(for: short, attribution: [(.utmSource, "a"), (.utmMedium, "b")])
        }
        // The default parser's limit, reached through a campaign field ("deeplink=%2Fp&utm_term=" + 4,080).
        let term = String(repeating: "b", count: 4_080)
        #expect(
            throws: LinkBuilderError.referrerTooLong(length: 4_103, limit: ReferrerParser.Configuration().maxInputBytes)
        ) {
            try Self.builder.referrer(for: short, attribution: [(.utmTerm, term)])
        }
    }

    @Test func badInputIsNamed() throws {
        #expect(throws: LinkBuilderError.rejected(link: "/a/../b", reason: .dotSegment)) {
            try Self.builder.canonicalLink("/a/../b")
        }
        #expect(throws: LinkBuilderError.notCanonical(link: "/a#top", canonical: "/a")) {
            try Self.builder.canonicalLink("/a#top")
        }
        let link = try Self.builder.canonicalLink("/a")
        for name in ["pro", "1pro.app", "pro..app", "pro.app-x", "pro.app."] {
            #expect(throws: LinkBuilderError.invalidPackageName(name)) {
                try Self.builder.playStoreURL(package: name, link: link)
            }
        }
        #expect(throws: LinkBuilderError.hostNotAllowed("evil.example")) {
            try Self.builder.universalLink(host: "evil.example", link: link)
        }
        let spaced = try Self.builder.canonicalLink("/a b")
        #expect(throws: LinkBuilderError.notURLSafe(link: "/a b", byte: 0x20)) {
            try Self.builder.universalLink(host: "nerdy.pro", link: spaced)
        }
        #expect(throws: LinkBuilderError.invalidBundleID("clip")) {
            try Self.builder.appClipDefaultURL(clipBundleID: "clip")
        }
    }
}
