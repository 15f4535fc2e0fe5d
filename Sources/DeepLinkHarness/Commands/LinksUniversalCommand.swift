import DeepLinkCore
import DeepLinkLinks

/// `links universal`: prints the universal link (`https://host/path?query`) for the installed app,
/// optionally signed.
///
/// Thread safety: a command runs on one thread.
struct LinksUniversalCommand: LinkPrintingCommand {
    static let configuration = CommandConfiguration(
        name: "universal",
        abstract: "Print the universal link the installed app opens.",
        usage: "links universal --host H --path L [signing]",
        options: [Option.host.described("The app's associated domain (e.g. nerdy.pro)."), Option.path]
            + LinkOptions.options
    )

    let url: String

    init(arguments: ParsedArguments) throws(CLIError) {
        if let extra = arguments.positionals.first { throw .unexpectedArgument(extra) }
        let host = try arguments.required(.host)
        let path = try arguments.required(.path)
        url = try LinkOptions(arguments: arguments).url(host: host, path: path) {
            builder,
            link throws(LinkBuilderError) in
            try builder.universalLink(host: host, link: link)
        }
    }
}
