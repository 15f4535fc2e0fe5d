/// `deeplink-bench merge --out DIR DIR...`: merges the report directories of a sharded run into
/// one report directory (see ``ReportMerger``).
///
/// Thread safety: a value type run by one thread.
public struct MergeCommand: BenchCommand {
    public static let configuration = CommandConfiguration(
        name: "merge",
        abstract: "Merge the report directories of a sharded run into one report.",
        usage: "merge --out DIR SHARD_DIR...",
        discussion: """
            Counters and allocated bytes are summed, latency histograms merged exactly (from \
            histograms.csv), violations united, manifests combined. Exit 0 on success, 2 on a usage \
            or input error (named).
            """,
        options: [
            OptionSpec("--out", value: "dir", help: "Directory to write the merged report to."),
            ReportCommand.noReportOption,
        ]
    )

    public var output: String
    public var inputs: [String]
    public var commandLine: [String]
    /// `--no-report`: skip report.html and summary.md.
    public var noReport = false

    public init(arguments: ParsedArguments) throws(CLIError) {
        guard let output = arguments.string("--out"), !output.isEmpty else { throw .missingArgument("--out DIR") }
        guard !arguments.positionals.isEmpty else { throw .missingArgument("at least one shard report directory") }
        self.output = output
        self.inputs = arguments.positionals
        self.noReport = arguments.has("--no-report")
        self.commandLine = ["deeplink-bench", "merge", "--out", output] + arguments.positionals
    }

    public mutating func run(io: CommandIO) throws -> Int32 {
        do {
            try OutputDirectory.check(output)
            var reports: [RunReport] = []
            for input in inputs { reports.append(try ReportReader.read(input)) }
            let merged = try ReportMerger.merge(reports, sources: inputs, commandLine: commandLine)
            let missing = ReportMerger.missingShards(reports.map(\.manifest.shard))
            if !missing.isEmpty {
                io.err("warning: merge: shards \(missing.joined(separator: ", ")) are missing; the result is partial\n")
            }
            try ReportWriter.write(merged, to: output)
            let journeys = merged.strategies.map(\.journeys).max() ?? 0
            io.out("merged \(inputs.count) reports (\(journeys) journeys per strategy) into \(output)\n")
            if !noReport { io.out(ReportCommand.attach(to: output, io: io)) }
            return 0
        } catch let error as ReportError {
            io.err("error: merge: \(error)\n")
            return 2
        }
    }
}
