/// `deeplink-bench links`: makes the links an app team publishes and its site association files,
/// checked by the same validator and parser the app runs (`DeepLinkLinks`).
///
/// - `links play --package P --path L [--utm-source S …] [signing]`: the Play Store URL;
/// - `links clip --host H --path L [signing]` or `links clip --default --clip-bundle-id B [--query Q]`:
///   the App Clip invocation URL (own domain, or Apple's default `appclip.apple.com` link);
/// - `links universal --host H --path L [signing]`: the universal link;
/// - `links site --config FILE --out DIR`: `.well-known/apple-app-site-association` and
///   `.well-known/assetlinks.json`.
///
/// Signing (`--sign-key-file F [--expires-at S | --expires-in S] [--nonce HEX]`) appends the
/// `dl_kid`/`dl_exp`/`dl_nonce`/`dl_sig` fields (``LinkSignature``) made with the key file's active key.
///
/// Thread safety: a command runs on one thread.
package struct LinksCommand: BenchCommand {
    /// Every subcommand, in the order `--help` lists them.
    static let subcommands: [any LinksSubcommand.Type] = [
        LinksPlayCommand.self, LinksClipCommand.self, LinksUniversalCommand.self, LinksSiteCommand.self,
    ]

    package static var configuration: CommandConfiguration {
        var options: [OptionSpec] = []
        for subcommand in subcommands {
            for option in subcommand.options where !options.contains(where: { $0.name == option.name }) {
                options.append(option)
            }
        }
        let width = subcommands.map { $0.name.count }.max() ?? 0
        let list = subcommands.map { sub in
            "  \(sub.name)" + String(repeating: " ", count: width - sub.name.count + 2) + sub.abstract
                + "\n    options: "
                + sub.options.map(\.name).joined(separator: " ")
        }
        return CommandConfiguration(
            name: "links",
            abstract: "Make Play Store, App Clip and universal links (optionally signed) and site association files.",
            usage: "links <play|clip|universal|site> [options]",
            discussion: "SUBCOMMANDS:\n" + list.joined(separator: "\n")
                + "\nEvery link is read back through the parser and validator before it is printed; bad input "
                + "exits 2 with a named error.",
            options: options
        )
    }

    var subcommand: any LinksSubcommand

    package init(arguments: ParsedArguments) throws(CLIError) {
        guard let name = arguments.positionals.first else {
            throw .missingArgument("a subcommand: " + Self.subcommands.map { $0.name }.joined(separator: ", "))
        }
        guard let type = Self.subcommands.first(where: { $0.name == name }) else {
            throw .invalidValue(
                option: "links",
                value: name,
                expected: "one of " + Self.subcommands.map { $0.name }.joined(separator: ", ")
            )
        }
        // Options of other subcommands are unknown to this one.
        let own = Set(type.options.map(\.name) + ["--help"])
        for option in arguments.flags.union(arguments.values.keys) where !own.contains(option) {
            throw .unknownOption(option)
        }
        var rest = arguments
        rest.positionals.removeFirst()
        if let extra = rest.positionals.first { throw .unexpectedArgument(extra) }
        subcommand = try type.init(arguments: rest)
    }

    package mutating func run(io: CommandIO) throws -> Int32 {
        try subcommand.run(io: io)
    }
}
