import Foundation

/// `deeplink-bench merge --out DIR DIR...`: merges the report directories of a sharded run into
/// one report directory (see ``ReportMerger``). The output may not be one of the inputs, nor hold
/// or sit inside one; it is checked before any input is read.
///
/// Thread safety: a value type run by one thread.
package struct MergeCommand: BenchCommand {
    package static let configuration = CommandConfiguration(
        name: "merge",
        abstract: "Merge the report directories of a sharded run into one report.",
        usage: "merge --out DIR [--partial] SHARD_DIR...",
        discussion: """
            Counters and allocated bytes are summed, latency histograms merged exactly (from \
            histograms.csv), violations united, manifests combined. The inputs must be shards of one \
            run (same seed, --journeys, strategies, mix, race share, loop and commit) whose journeys \
            overlap nowhere and, unless --partial, cover the whole run. Exit 0 on success, 2 on a usage \
            or input error (named).
            """,
        options: [
            Option.out.described("Directory to write the merged report to (not an input)."), partial, Flag.noReport,
        ]
    )

    static let partial = Flag(
        "--partial",
        help: "Merge even if some shards are missing (the result records what it covers)."
    )

    package var output: String
    package var inputs: [String]
    package var commandLine: [String]
    /// `--no-report`: skip report.html and summary.md.
    package var noReport = false
    /// `--partial`: a merge that leaves some of the run's journeys out is allowed.
    package var partial = false

    package init(arguments: ParsedArguments) throws(CLIError) {
        guard let output = arguments[.out], !output.isEmpty else { throw .missingArgument(Option.out.spec.usage) }
        guard !arguments.positionals.isEmpty else { throw .missingArgument("at least one shard report directory") }
        self.output = output
        self.inputs = arguments.positionals
        self.noReport = arguments[.noReport]
        self.partial = arguments[Self.partial]
        self.commandLine =
            ["deeplink-bench", "merge", Option.out.name, output] + (partial ? [Self.partial.name] : [])
            + arguments.positionals
    }

    package mutating func run(io: CommandIO) throws -> Int32 {
        do {
            try Self.checkOutput(output, inputs: inputs)
            var reports: [RunReport] = []
            for input in inputs { reports.append(try ReportReader.read(input)) }
            let merged = try ReportMerger.merge(
                reports,
                sources: inputs,
                commandLine: commandLine,
                allowPartial: partial
            )
            if partial, let identity = merged.manifest.run, identity.journeyRanges != [0..<identity.journeys] {
                io.err(
                    "warning: merge: --partial: the result covers journeys "
                        + "\(RunIdentity.describe(identity.journeyRanges)) of \(identity.journeys)\n"
                )
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

    /// Refuses an output directory that is an input, holds one or sits inside one (compared with
    /// symbolic links resolved), then checks it can take a report (``OutputDirectory/check(_:replacingReport:)``).
    static func checkOutput(_ output: String, inputs: [String]) throws(ReportError) {
        func resolved(_ path: String) -> String {
            URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        }
        let out = resolved(output)
        for input in inputs {
            let source = resolved(input)
            let overlapping = out == source || out.hasPrefix(source + "/") || source.hasPrefix(out + "/")
            guard !overlapping else {
                throw .incompatible(
                    "\(Option.out.name) \(output) is, holds or sits inside the input \(input); merge never writes "
                        + "over its inputs: choose another --out"
                )
            }
        }
        try OutputDirectory.check(output, replacingReport: true)
    }
}
