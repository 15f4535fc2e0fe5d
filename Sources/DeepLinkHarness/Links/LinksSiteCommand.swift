import DeepLinkLinks

/// `links site`: writes `.well-known/apple-app-site-association` and `.well-known/assetlinks.json`
/// under `--out` from the JSON configuration `--config` (``SiteConfiguration``).
///
/// Thread safety: a command runs on one thread.
struct LinksSiteCommand: LinksSubcommand {
    static let name = "site"
    static let abstract = "Write apple-app-site-association and assetlinks.json from one JSON configuration."
    static var options: [OptionSpec] {
        [
            OptionSpec("--config", value: "file", help: "The site configuration (JSON; see Docs/CLI.md)."),
            OptionSpec("--out", value: "dir", help: "Where to write .well-known/ (created if missing)."),
        ]
    }

    let configuration: SiteConfiguration
    let directory: String

    init(arguments: ParsedArguments) throws(CLIError) {
        let file = try LinkOptions.required("--config", in: arguments)
        directory = try LinkOptions.required("--out", in: arguments)
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
