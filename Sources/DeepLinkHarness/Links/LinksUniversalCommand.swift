import DeepLinkCore
import DeepLinkLinks

/// `links universal`: prints the universal link (`https://host/path?query`) for the installed app,
/// optionally signed.
///
/// Thread safety: a command runs on one thread.
struct LinksUniversalCommand: LinksSubcommand {
    static let name = "universal"
    static let abstract = "Print the universal link the installed app opens."
    static var options: [OptionSpec] {
        [
            OptionSpec("--host", value: "host", help: "The app's associated domain (e.g. nerdy.pro)."),
            OptionSpec("--path", value: "link", help: "The canonical app link (path and optional query)."),
        ] + LinkOptions.validation + LinkOptions.signing
    }

    let url: String

    init(arguments: ParsedArguments) throws(CLIError) {
        let host = try LinkOptions.required("--host", in: arguments)
        let path = try LinkOptions.required("--path", in: arguments)
        let options = try LinkOptions(arguments: arguments)
        let builder = options.builder(hosts: [host])
        let link = try options.link(path, builder: builder)
        do {
            url = try builder.universalLink(host: host, link: link)
        } catch {
            throw LinkOptions.usage(error)
        }
    }

    mutating func run(io: CommandIO) throws -> Int32 {
        io.out(url + "\n")
        return 0
    }
}
