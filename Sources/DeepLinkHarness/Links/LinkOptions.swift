import DeepLinkCore
import DeepLinkLinks
import Foundation

/// The options the link-printing subcommands share: the validator's configuration and signing.
///
/// Thread safety: a value type.
struct LinkOptions {
    static let validation: [OptionSpec] = [
        OptionSpec("--routes", value: "list", help: "Comma-separated route prefixes the app's validator accepts.")
    ]
    static let signing: [OptionSpec] = [
        OptionSpec("--sign-key-file", value: "file", help: "Sign the link with this key file's active key."),
        OptionSpec("--expires-at", value: "unix-seconds", help: "Signed links: the expiry (default: now + 7 days)."),
        OptionSpec("--expires-in", value: "seconds", help: "Signed links: the expiry, from now."),
        OptionSpec("--nonce", value: "hex", help: "Signed links: the 16-hex-digit nonce (default: random)."),
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
        if let routes = arguments.string("--routes") {
            let list = routes.split(separator: ",").map(String.init)
            guard !list.isEmpty, list.allSatisfy({ $0.hasPrefix("/") }) else {
                throw .invalidValue(option: "--routes", value: routes, expected: "paths starting with '/'")
            }
            self.routes = list
        }
        guard let file = arguments.string("--sign-key-file") else {
            for option in ["--expires-at", "--expires-in", "--nonce"] where arguments.string(option) != nil {
                throw .invalidInput("\(option) applies to signed links only; add --sign-key-file FILE")
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
        if let at = try arguments.unsigned("--expires-at") {
            guard arguments.string("--expires-in") == nil else {
                throw .invalidInput("give --expires-at or --expires-in, not both")
            }
            expiry = at
        } else if let lifetime = try arguments.unsigned("--expires-in") {
            let (sum, overflow) = now.addingReportingOverflow(lifetime)
            guard !overflow else {
                throw .invalidValue(option: "--expires-in", value: "\(lifetime)", expected: "fewer seconds")
            }
            expiry = sum
        }
        var nonce = UInt64.random(in: .min ... .max)
        if let text = arguments.string("--nonce") {
            guard text.utf8.count == LinkSignature.nonceHexDigits,
                text.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }),
                let value = UInt64(text, radix: 16)
            else {
                throw .invalidValue(option: "--nonce", value: text, expected: "16 lowercase hex digits")
            }
            nonce = value
        }
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

    static func usage(_ error: LinkBuilderError) -> CLIError { .invalidInput("\(error.name): \(error.message)") }

    static func required(_ option: String, in arguments: ParsedArguments) throws(CLIError) -> String {
        guard let value = arguments.string(option) else { throw .missingArgument(option) }
        return value
    }
}
