import DeepLinkLinks

/// `links site`: writes `.well-known/apple-app-site-association` and `.well-known/assetlinks.json`
/// under `--out` from the JSON configuration `--config` (``SiteConfiguration``).
///
/// Thread safety: a command runs on one thread.
struct LinksSiteCommand: BenchCommand {
    static let configuration = CommandConfiguration(
        name: "site",
        abstract: "Write apple-app-site-association and assetlinks.json from one JSON configuration.",
        usage: "links site --config FILE --out DIR",
        options: [config, Option.out.described("Where to write .well-known/ (created if missing).")]
    )

    static let config = Option(
        "--config",
        value: "file",
        as: .text,
        help: "The site configuration (JSON; see Docs/CLI.md)."
    )

    let configuration: SiteConfiguration
    let directory: String

    init(arguments: ParsedArguments) throws(CLIError) {
        if let extra = arguments.positionals.first { throw .unexpectedArgument(extra) }
        let file = try arguments.required(Self.config)
        directory = try arguments.required(.out)
        do {
            configuration = try SiteConfiguration(file: file)
        } catch {
            throw .invalidInput("\(error.name): \(error.message)")
        }
    }

    mutating func run(io: CommandIO) throws -> Int32 {
        let written: [String]
        do {
            written = try SiteAssociation.write(configuration, to: directory)
        } catch {
            throw CLIError.invalidInput(
                "cannot write the site files under '\(directory)': \(error.localizedDescription); "
                    + "give an --out directory you can write to"
            )
        }
        for path in written { io.out(path + "\n") }
        return 0
    }
}
