import Foundation

/// `deeplink-bench capacity`: sweeps threads and offered rate (open loop), writes capacity.csv and
/// manifest.json into `--out`, and prints what the machine sustains under the latency objective.
///
/// Thread safety: a value type run by one thread.
public struct CapacityCommand: BenchCommand {
    public static let configuration = CommandConfiguration(
        name: "capacity",
        abstract: "Find the highest arrival rate that holds a p99 latency objective; project a peak.",
        usage:
            "capacity [--slo-p99-ns N] [--peak-per-s R] [--quick] [--max-threads T] [--step-ms MS] [--max-rate R] [--seed S] "
            + "[--out DIR] [--quiet]",
        discussion: """
            For each thread count 1...T, offers journeys of the core strategy open loop (as run --rate) at a rate \
            that doubles until p99 journey latency, measured from each arrival's intended start, exceeds the \
            objective or an arrival is dropped, then bisects. Writes capacity.csv (one row per step) and \
            manifest.json into --out (default Reports/capacity). --quick: 1 and T threads, short steps, under a \
            minute.
            """,
        options: [
            OptionSpec(
                "--slo-p99-ns",
                value: "N",
                help: "Latency objective: p99 journey latency in ns (default 1000000)."
            ),
            OptionSpec(
                "--peak-per-s",
                value: "R",
                help: "Project cores and memory for a peak of R journeys per second."
            ),
            .flag("--quick", help: "Reduced sweep (1 and T threads, 0.2 s steps), under a minute."),
            OptionSpec(
                "--max-threads",
                value: "T",
                help: "Sweep 1...T threads, T at most \(RunCommand.maximumThreads) (default: one per core)."
            ),
            OptionSpec("--step-ms", value: "MS", help: "Duration of each step in ms (default 1000; --quick 200)."),
            OptionSpec("--max-rate", value: "R", help: "Never offer more than R journeys per second (default 1e8)."),
            OptionSpec("--seed", value: "S", help: "Seed of the journey generator (default 1)."),
            OptionSpec("--out", value: "DIR", help: "Directory for capacity.csv (default Reports/capacity)."),
            .flag("--quiet", help: "No per-step progress lines."),
            ReportCommand.noReportOption,
        ]
    )

    public var sweep: CapacitySweep
    public var peakPerSecond: Double?
    public var outputDirectory: String
    public var quiet: Bool
    public var commandLine: [String]
    /// `--no-report`: skip report.html and summary.md.
    public var noReport = false

    public init(arguments: ParsedArguments) throws(CLIError) {
        guard arguments.positionals.isEmpty else { throw .unexpectedArgument(arguments.positionals[0]) }
        let slo = try arguments.integer("--slo-p99-ns", in: 1_000...3_600_000_000_000) ?? 1_000_000
        let threads = try RunCommand.threads("--max-threads", from: arguments) ?? RunCommand.defaultThreads
        sweep =
            arguments.has("--quick")
            ? .quick(cores: threads, sloP99Nanos: UInt64(slo)) : .full(cores: threads, sloP99Nanos: UInt64(slo))
        if let milliseconds = try arguments.integer("--step-ms", in: 1...600_000) {
            sweep.stepSeconds = Double(milliseconds) / 1_000
        }
        sweep.seed = try arguments.unsigned("--seed") ?? 1
        if arguments.values["--max-rate"] != nil {
            guard let rate = try arguments.double("--max-rate", in: 0...RunCommand.maximumRate), rate >= 1 else {
                throw .invalidValue(
                    option: "--max-rate",
                    value: arguments.values["--max-rate"] ?? "",
                    expected: "journeys per second, a number in 1...1e9"
                )
            }
            sweep.maximumRate = rate
        }
        if arguments.values["--peak-per-s"] != nil {
            guard let peak = try arguments.double("--peak-per-s", in: 0...1e15), peak > 0 else {
                throw .invalidValue(
                    option: "--peak-per-s",
                    value: arguments.values["--peak-per-s"] ?? "",
                    expected: "journeys per second, a number above 0"
                )
            }
            peakPerSecond = peak
        }
        outputDirectory = arguments.string("--out") ?? "Reports/capacity"
        quiet = arguments.has("--quiet")
        noReport = arguments.has("--no-report")
        var line = ["deeplink-bench", "capacity"]
        for (name, value) in arguments.values.sorted(by: { $0.key < $1.key }) { line += [name, value] }
        for flag in arguments.flags.sorted() { line.append(flag) }
        commandLine = line
    }

    public mutating func run(io: CommandIO) throws -> Int32 {
        do {
            try OutputDirectory.check(outputDirectory, replacingReport: true)
        } catch {
            io.err("error: capacity: \(error)\n")
            return 2
        }
        let sweep = sweep
        var manifest = RunManifest.current(commandLine: commandLine)
        let quiet = quiet
        func report(_ step: CapacityStep) {
            guard !quiet else { return }
            let verdict = step.meets(sloP99Nanos: sweep.sloP99Nanos) ? "holds" : "breaks"
            io.err(
                "capacity: \(step.threads) threads, offered \(CapacityReport.grouped(step.offeredPerSecond))/s: "
                    + "p99 \(step.p99Nanos) ns, dropped \(step.dropped): \(verdict)\n"
            )
        }
        let result = CapacityPlanner.sweep(
            sweep,
            measure: { CapacityPlanner.measure($0, sweep: sweep) },
            progress: report
        )
        manifest.disturbance = result.disturbance
        do {
            // One unit, as a run's report: capacity.csv, then manifest.json listing it.
            let csv = Array(try CapacityReport.csv(result).utf8)
            try SealedDirectory.write([(CapacityReport.file, csv)], manifest: manifest, to: outputDirectory)
        } catch let error as ReportError {
            io.err("error: capacity: \(error)\n")
            return 2
        }
        io.out(CapacityReport.summary(result, peakPerSecond: peakPerSecond, cpuModel: manifest.cpuModel))
        io.out("report: \(outputDirectory)/\(CapacityReport.file)\n")
        if !noReport { io.out(ReportCommand.attach(to: outputDirectory, io: io)) }
        return 0
    }
}
