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
    package static let subcommands: [any BenchCommand.Type] = [
        LinksPlayCommand.self, LinksClipCommand.self, LinksUniversalCommand.self, LinksSiteCommand.self,
    ]

    package static var configuration: CommandConfiguration {
        let names = subcommands.map { $0.configuration.name }
        let width = names.map(\.count).max() ?? 0
        let list = subcommands.map { sub in
            let configuration = sub.configuration
            return "  \(configuration.name)" + String(repeating: " ", count: width - configuration.name.count + 2)
                + configuration.abstract + "\n    options: "
                + configuration.options.map(\.name).filter { $0 != Flag.help.name }.joined(separator: " ")
        }
        return CommandConfiguration(
            name: "links",
            abstract: "Make Play Store, App Clip and universal links (optionally signed) and site association files.",
            usage: "links <\(names.joined(separator: "|"))> [options]",
            discussion: "SUBCOMMANDS:\n" + list.joined(separator: "\n")
                + "\nEvery link is read back through the parser and validator before it is printed; bad input "
                + "exits 2 with a named error. See 'deeplink-bench links <subcommand> --help' for a subcommand's "
                + "options.",
            options: []
        )
    }

    /// Reached only when the command line names no subcommand (``DeepLinkBench`` runs a named one):
    /// says which exist.
    package init(arguments: ParsedArguments) throws(CLIError) {
        let names = Self.subcommands.map { $0.configuration.name }.joined(separator: ", ")
        guard let name = arguments.positionals.first else { throw .missingArgument("a subcommand: " + names) }
        throw .invalidValue(option: Self.configuration.name, value: name, expected: "one of " + names)
    }

    package mutating func run(io: CommandIO) throws -> Int32 {
        preconditionFailure("links runs its subcommands; init(arguments:) throws when none is named")
    }
}
