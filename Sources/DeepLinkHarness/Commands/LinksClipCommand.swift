import DeepLinkCore
import DeepLinkLinks

/// `links clip`: prints the App Clip invocation URL, on the app's own domain (`--host`, `--path`,
/// optionally signed) or Apple's default link (`--default --clip-bundle-id B [--query Q]`).
///
/// Thread safety: a command runs on one thread.
struct LinksClipCommand: LinkPrintingCommand {
    static let configuration = CommandConfiguration(
        name: "clip",
        abstract: "Print the App Clip invocation URL (own domain, or --default appclip.apple.com).",
        usage: "links clip --host H --path L [signing] | links clip --default --clip-bundle-id B [--query Q]",
        options: [Option.host, Option.path, appleDefault, clipBundleID, query] + LinkOptions.options
    )

    static let appleDefault = Flag(
        "--default",
        help: "Apple's default App Clip link (https://appclip.apple.com/id?p=…)."
    )
    static let clipBundleID = Option(
        "--clip-bundle-id",
        value: "id",
        as: .text,
        help: "With --default: the App Clip's bundle id."
    )
    static let query = Option(
        "--query",
        value: "fields",
        as: .text,
        help: "With --default: query fields after p=… (k=v&…)."
    )

    let url: String

    init(arguments: ParsedArguments) throws(CLIError) {
        if let extra = arguments.positionals.first { throw .unexpectedArgument(extra) }
        let options = try LinkOptions(arguments: arguments)
        if arguments[Self.appleDefault] {
            for option in [Option.host, Option.path] where arguments.contains(option) {
                throw .invalidInput(
                    "\(option.name) does not apply to --default links; give --clip-bundle-id and --query"
                )
            }
            let bundle = try arguments.required(Self.clipBundleID)
            let builder = options.builder(hosts: [], appClipDefault: true)
            guard AppleBundleID.isValid(bundle) else { throw LinkOptions.usage(.invalidBundleID(bundle)) }
            // The link the validator makes of the default URL, signed when asked; its query after
            // `p=<bundle>` is what the URL carries.
            let prefix = "/id?p=\(bundle)"
            let link = try options.link(prefix + (arguments[Self.query].map { "&" + $0 } ?? ""), builder: builder)
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
        for option in [Self.clipBundleID, Self.query] where arguments.contains(option) {
            throw .invalidInput("\(option.name) applies to --default links only")
        }
        let host = try arguments.required(.host)
        url = try options.url(host: host, path: try arguments.required(.path)) {
            builder,
            link throws(LinkBuilderError) in
            try builder.appClipURL(host: host, link: link)
        }
    }
}
