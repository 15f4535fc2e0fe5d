/// A `links` subcommand that prints the one URL it built from its arguments.
///
/// Thread safety: a command runs on one thread.
protocol LinkPrintingCommand: BenchCommand {
    /// The URL, built (and checked) when the arguments were read.
    var url: String { get }
}

extension LinkPrintingCommand {
    mutating func run(io: CommandIO) throws -> Int32 {
        io.out(url + "\n")
        return 0
    }
}
