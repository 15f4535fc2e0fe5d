import DeepLinkCore
import DeepLinkLinks

/// `links universal`: prints the universal link (`https://host/path?query`) for the installed app,
/// optionally signed.
///
/// Thread safety: a command runs on one thread.
struct LinksUniversalCommand: BenchCommand {
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
