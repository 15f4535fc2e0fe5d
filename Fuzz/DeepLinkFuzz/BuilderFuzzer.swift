import DeepLinkCore
import DeepLinkCoreTestSupport
import DeepLinkHarness
import DeepLinkLinks

/// The link builder and the parser: for every link the validator accepts in canonical form, the
/// builder makes a referrer (and, for URL-safe links, a universal link and an App Clip URL) from
/// which the core's parser and validator recover exactly that link; the builder never traps and
/// refuses only with a named error.
///
/// Input: one byte picks the validator, one byte whether to add a `utm_term`, the rest is the link.
enum BuilderFuzzer {
    static let builders = [
        LinkBuilder(validator: ExampleApp.validator),
        LinkBuilder(
            validator: LinkValidator(configuration: .init(allowedHosts: ["a.example"], routes: ["/p", "/q/"]))
        ),
        LinkBuilder(
            validator: ExampleApp.validator,
            parser: ReferrerParser(configuration: .init(maxInputBytes: 200, maxFields: 2))
        ),
    ]
    static let parser = ReferrerParser()

    static func run(_ input: UnsafeRawBufferPointer) {
        var cursor = FuzzInput(input)
        let builder = builders[cursor.choose(builders.count)]
        let withTerm = cursor.choose(2) == 1
        let bytes = cursor.rest()
        guard let text = String(validating: bytes, as: UTF8.self) else { return }
        let link: DeepLink
        do {
            link = try builder.canonicalLink(text)
        } catch {
            switch error {
            case .rejected, .notCanonical: return
            default: return fuzzCheck(false, "canonicalLink threw \(error.name)")
            }
        }
        fuzzCheck(link.string == text, "canonical link differs from its text")
        let attribution: [(field: LinkAttribution.Field, value: String)] = withTerm ? [(.utmTerm, text)] : []
        do {
            let referrer = try builder.referrer(for: link, attribution: attribution)
            fuzzCheck(
                builder.parser.verdictRead(referrer, validator: builder.validator) == .link(link),
                "the parser does not recover \(text) from \(referrer)"
            )
            fuzzCheck(referrer.utf8.count <= builder.parser.configuration.maxInputBytes, "referrer over the limit")
        } catch {
            switch error {
            case .referrerTooLong, .tooManyFields: break
            default: fuzzCheck(false, "referrer(for:) threw \(error.name) for \(text)")
            }
        }
        let host = builder.validator.configuration.allowedHosts[0]
        do {
            let url = try builder.universalLink(host: host, link: link)
            fuzzCheck(builder.validator.validate(url) == .success(link), "universal link \(url) does not round-trip")
            fuzzCheck(try builder.appClipURL(host: host, link: link) == url, "clip URL differs from universal link")
        } catch {
            fuzzCheck(error.name == "notURLSafe", "universalLink threw \(error.name) for \(text)")
        }
    }
}
