/// One `deeplink-bench links` subcommand: a name, a one-line abstract, its own options, validation
/// in `init(arguments:)` before any work, and `run(io:)`.
package protocol LinksSubcommand: SendableMetatype {
    static var name: String { get }
    static var abstract: String { get }
    static var options: [OptionSpec] { get }
    init(arguments: ParsedArguments) throws(CLIError)
    mutating func run(io: CommandIO) throws -> Int32
}
