/// One `deeplink-bench` command (`run`) or subcommand (`links play`). `init(arguments:)` validates
/// everything before anything runs; `run(io:)` does the work and returns the exit status.
package protocol BenchCommand: SendableMetatype {
    static var configuration: CommandConfiguration { get }
    /// The commands named after this one (`links play`); a command line naming one runs it instead.
    static var subcommands: [any BenchCommand.Type] { get }
    init(arguments: ParsedArguments) throws(CLIError)
    mutating func run(io: CommandIO) throws -> Int32
}

extension BenchCommand {
    package static var subcommands: [any BenchCommand.Type] { [] }
}
