import DeepLinkCore

/// The options the `links` subcommands share (and `inspect`'s `--routes`), each declared once here.
extension Option where Value == [String]? {
    package static var routes: Self {
        Option(
            "--routes",
            value: "list",
            as: .paths,
            help: "Comma-separated route prefixes the app's validator accepts."
        )
    }
}

extension Option where Value == String? {
    package static var host: Self {
        Option("--host", value: "host", as: .text, help: "The app's own domain (e.g. nerdy.pro).")
    }
    package static var path: Self {
        Option("--path", value: "link", as: .text, help: "The canonical app link (path and optional query).")
    }
    package static var signKeyFile: Self {
        Option("--sign-key-file", value: "file", as: .text, help: "Sign the link with this key file's active key.")
    }
}

extension Option where Value == UInt64? {
    package static var expiresAt: Self {
        Option(
            "--expires-at",
            value: "unix-seconds",
            as: .unsigned,
            help: "Signed links: the expiry (default: now + 7 days)."
        )
    }
    package static var expiresIn: Self {
        Option("--expires-in", value: "seconds", as: .unsigned, help: "Signed links: the expiry, from now.")
    }
    package static var nonce: Self {
        Option(
            "--nonce",
            value: "hex",
            as: ValueParser { text throws(OptionValueError) in
                guard text.utf8.count == LinkSignature.nonceHexDigits,
                    text.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }),
                    let value = UInt64(text, radix: 16)
                else { throw .expected("16 lowercase hex digits") }
                return value
            },
            help: "Signed links: the 16-hex-digit nonce (default: random)."
        )
    }
}
