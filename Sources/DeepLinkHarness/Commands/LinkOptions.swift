import DeepLinkCore
import DeepLinkLinks
import Foundation

/// The options the link-printing subcommands share: the validator's configuration and signing.
///
/// Thread safety: a value type.
struct LinkOptions {
    /// The options of the subcommands that print a link.
    static let options: [any DeclaredOption] = [
        Option.routes, Option.signKeyFile, Option.expiresAt, Option.expiresIn, Option.nonce,
    ]

    /// Seven days, the resolver's default time-to-live.
    static let defaultLifetimeSeconds: UInt64 = 7 * 24 * 3600

    struct Signing {
        var authenticator: HMACSHA256Authenticator
        var expiresAtSeconds: UInt64
        var nonce: UInt64
    }

    var routes: [String]?
    var signing: Signing?

    init(arguments: ParsedArguments) throws(CLIError) {
        routes = arguments[.routes]
        guard let file = arguments[.signKeyFile] else {
            for option in [Option.expiresAt, Option.expiresIn, Option.nonce] where arguments.contains(option) {
                throw .invalidInput("\(option.name) applies to signed links only; add --sign-key-file FILE")
            }
            return
        }
        let authenticator: HMACSHA256Authenticator
        do {
            authenticator = try HMACSHA256Authenticator(keyFile: file)
        } catch {
            throw .invalidInput("\(error.name): \(error.message)")
        }
        let now = UInt64(max(0, Date().timeIntervalSince1970))
        var expiry = now &+ Self.defaultLifetimeSeconds
        if let at = arguments[.expiresAt] {
            guard !arguments.contains(Option.expiresIn) else {
                throw .invalidInput("give --expires-at or --expires-in, not both")
            }
            expiry = at
        } else if let lifetime = arguments[.expiresIn] {
            let (sum, overflow) = now.addingReportingOverflow(lifetime)
            guard !overflow else {
                throw .invalidValue(option: Option.expiresIn.name, value: "\(lifetime)", expected: "fewer seconds")
            }
            expiry = sum
        }
        let nonce = arguments[.nonce] ?? UInt64.random(in: .min ... .max)
        signing = Signing(authenticator: authenticator, expiresAtSeconds: expiry, nonce: nonce)
    }

    /// A builder whose validator accepts `hosts` (and Apple's default clip links when asked).
    func builder(hosts: [String], appClipDefault: Bool = false) -> LinkBuilder {
        LinkBuilder(
            validator: LinkValidator(
                configuration: .init(allowedHosts: hosts, acceptsAppClipDefaultLinks: appClipDefault, routes: routes)
            )
        )
    }

    /// The canonical link for `path`, signed when asked.
    func link(_ path: String, builder: LinkBuilder) throws(CLIError) -> DeepLink {
        do {
            let link = try builder.canonicalLink(path)
            guard let signing else { return link }
            return try builder.signed(
                link,
                authenticator: signing.authenticator,
                expiresAtSeconds: signing.expiresAtSeconds,
                nonce: signing.nonce
            )
        } catch {
            throw Self.usage(error)
        }
    }

    /// The URL `make` builds of `path` on the app's own domain `host`, signed when asked (what
    /// `links clip` and `links universal` print).
    func url(
        host: String,
        path: String,
        _ make: (LinkBuilder, DeepLink) throws(LinkBuilderError) -> String
    ) throws(CLIError) -> String {
        let builder = builder(hosts: [host])
        let link = try link(path, builder: builder)
        do {
            return try make(builder, link)
        } catch {
            throw Self.usage(error)
        }
    }

    static func usage(_ error: LinkBuilderError) -> CLIError { .invalidInput("\(error.name): \(error.message)") }
}
