import Foundation

/// `deeplink-bench capacity`: sweeps threads and offered rate (open loop), writes capacity.csv and
/// manifest.json into `--out`, and prints what the machine sustains under the latency objective.
///
/// Thread safety: a value type run by one thread.
package struct CapacityCommand: BenchCommand {
    package static let configuration = CommandConfiguration(
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
            sloP99, peakPerSecond, quick, maxThreads, stepMilliseconds, maxRate, Option.seed,
            Option.out.described("Directory for capacity.csv (default Reports/capacity)."),
            Option.quiet.described("No per-step progress lines."), Flag.noReport,
        ]
    )

    static let sloP99 = Option(
        "--slo-p99-ns",
        value: "N",
        default: 1_000_000,
        as: .integer(in: 1_000...3_600_000_000_000),
        help: "Latency objective: p99 journey latency in ns (default 1000000)."
    )
    static let peakPerSecond = Option(
        "--peak-per-s",
        value: "R",
        as: ValueParser { text throws(OptionValueError) in
            guard let peak = Double(text), peak.isFinite, peak > 0, peak <= 1e15 else {
                throw .expected("journeys per second, a number above 0")
            }
            return peak
        },
        help: "Project cores and memory for a peak of R journeys per second."
    )
    static let quick = Flag("--quick", help: "Reduced sweep (1 and T threads, 0.2 s steps), under a minute.")
    static let maxThreads = Option(
        "--max-threads",
        value: "T",
        default: RunCommand.defaultThreads,
        as: RunCommand.threadCount,
        help: "Sweep 1...T threads, T at most \(RunCommand.maximumThreads) (default: one per core)."
    )
    static let stepMilliseconds = Option(
        "--step-ms",
        value: "MS",
        as: .integer(in: 1...600_000),
        help: "Duration of each step in ms (default 1000; --quick 200)."
    )
    static let maxRate = Option(
        "--max-rate",
        value: "R",
        as: .number(in: 1...RunCommand.maximumRate, expected: "journeys per second, a number in 1...1e9"),
        help: "Never offer more than R journeys per second (default 1e8)."
    )

    package var sweep: CapacitySweep
    package var peakPerSecond: Double?
    package var outputDirectory: String
    package var quiet: Bool
    package var commandLine: [String]
    /// `--no-report`: skip report.html and summary.md.
    package var noReport = false

    package init(arguments: ParsedArguments) throws(CLIError) {
        guard arguments.positionals.isEmpty else { throw .unexpectedArgument(arguments.positionals[0]) }
        let slo = UInt64(arguments[Self.sloP99])
        let threads = arguments[Self.maxThreads]
        sweep =
            arguments[Self.quick] ? .quick(cores: threads, sloP99Nanos: slo) : .full(cores: threads, sloP99Nanos: slo)
        if let milliseconds = arguments[Self.stepMilliseconds] { sweep.stepSeconds = Double(milliseconds) / 1_000 }
        sweep.seed = arguments[.seed]
        if let rate = arguments[Self.maxRate] { sweep.maximumRate = rate }
        peakPerSecond = arguments[Self.peakPerSecond]
        outputDirectory = arguments[.out] ?? "Reports/capacity"
        quiet = arguments[.quiet]
        noReport = arguments[.noReport]
        commandLine = ["deeplink-bench", "capacity"] + arguments.givenValues + arguments.givenFlags
    }

    package mutating func run(io: CommandIO) throws -> Int32 {
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
