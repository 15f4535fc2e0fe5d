import DeepLinkCore
import DeepLinkLinks

/// `links clip`: prints the App Clip invocation URL, on the app's own domain (`--host`, `--path`,
/// optionally signed) or Apple's default link (`--default --clip-bundle-id B [--query Q]`).
///
/// Thread safety: a command runs on one thread.
struct LinksClipCommand: LinksSubcommand {
    static let name = "clip"
    static let abstract = "Print the App Clip invocation URL (own domain, or --default appclip.apple.com)."
    static var options: [OptionSpec] {
        [
            OptionSpec("--host", value: "host", help: "The app's own domain (e.g. nerdy.pro)."),
            OptionSpec("--path", value: "link", help: "The canonical app link (path and optional query)."),
            .flag("--default", help: "Apple's default App Clip link (https://appclip.apple.com/id?p=…)."),
            OptionSpec("--clip-bundle-id", value: "id", help: "With --default: the App Clip's bundle id."),
            OptionSpec("--query", value: "fields", help: "With --default: query fields after p=… (k=v&…)."),
        ] + LinkOptions.validation + LinkOptions.signing
    }

    let url: String

    init(arguments: ParsedArguments) throws(CLIError) {
        let options = try LinkOptions(arguments: arguments)
        if arguments.has("--default") {
            for option in ["--host", "--path"] where arguments.string(option) != nil {
                throw .invalidInput("\(option) does not apply to --default links; give --clip-bundle-id and --query")
            }
            let bundle = try LinkOptions.required("--clip-bundle-id", in: arguments)
            let builder = options.builder(hosts: [], appClipDefault: true)
            guard AppleBundleID.isValid(bundle) else { throw LinkOptions.usage(.invalidBundleID(bundle)) }
            // The link the validator makes of the default URL, signed when asked; its query after
            // `p=<bundle>` is what the URL carries.
            let prefix = "/id?p=\(bundle)"
            let link = try options.link(prefix + (arguments.string("--query").map { "&" + $0 } ?? ""), builder: builder)
            let query = link.string.dropFirst(prefix.utf8.count)
            do {
                url = try builder.appClipDefaultURL(
                    clipBundleID: bundle,
                    query: query.isEmpty ? nil : String(query.dropFirst())
                )
            } catch {
                throw LinkOptions.usage(error)
            }
            return
        }
        for option in ["--clip-bundle-id", "--query"] where arguments.string(option) != nil {
            throw .invalidInput("\(option) applies to --default links only")
        }
        let host = try LinkOptions.required("--host", in: arguments)
        let builder = options.builder(hosts: [host])
        let link = try options.link(try LinkOptions.required("--path", in: arguments), builder: builder)
        do {
            url = try builder.appClipURL(host: host, link: link)
        } catch {
            throw LinkOptions.usage(error)
        }
    }

    mutating func run(io: CommandIO) throws -> Int32 {
        io.out(url + "\n")
        return 0
    }
}
