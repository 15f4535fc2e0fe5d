import Foundation

/// `deeplink-bench run`: streams journeys through the strategies, prints a summary table and
/// writes the report directory.
package struct RunCommand: BenchCommand {
    package static let configuration = CommandConfiguration(
        name: "run",
        abstract: "Run synthetic journeys through the strategies, check them against the oracle, write reports.",
        usage:
            "run [--journeys N] [--seed S] [--threads T] [--strategies core,naive,fingerprint,clipboard] "
            + "[--race-share X] [--schedule MODE [--max-points N]] [--out DIR] [--mix FILE] [--quiet] "
            + "[--rate R [--max-lag-ns N]] [--shard i/n] [--duration SECONDS] [--warmup N] [--threshold EXPR ...] "
            + "[--wide] "
            + "[--exec NAME=COMMAND ... [--kill message|signal] [--exec-timeout-ms MS] [--exec-log-dir DIR]]",
        discussion: """
            Defaults: 1,000,000 journeys, seed 1, one thread per core, all strategies, race share 0.1, \
            reports in Reports/latest. --mix FILE is a JSON object overriding any of these keys of the \
            built-in scenario mix (weights >= 0, shares in 0...1, seconds >= 1):
            """ + " " + ScenarioMix.keys.joined(separator: ", ") + ". "
                + "Ends with one verdict line. Exit status: 0 when every threshold holds, 1 when one fails "
                + "(or the watchdog stopped the run), 2 for bad input.",
        options: [
            journeys, Option.seed, threads, Option.strategies, Option.raceShare,
            Option.out.described("Report directory (default Reports/latest)."), Option.mix, Flag.quiet,
            Option.coreFaults, journeyTimeout, Option.schedule, Option.maxPoints, rate, maxLag, shard, duration,
            warmup, Option.exec, Option.kill, Option.execTimeoutMilliseconds, Option.execLogDirectory,
            threshold, wide, Flag.noReport,
        ]
    )

    static let journeys = Option(
        "--journeys",
        value: "N",
        default: 1_000_000,
        as: .integer(in: 1...maximumJourneys),
        help: "Journeys to run (default 1000000)."
    )
    static let threads = Option(
        "--threads",
        value: "T",
        default: defaultThreads,
        as: threadCount,
        help: "Worker threads, at most \(maximumThreads) (default: one per core)."
    )
    static let journeyTimeout = Option(
        "--journey-timeout-ms",
        value: "MS",
        as: .integer(in: 1...3_600_000),
        help: "Watchdog: a journey running longer is reported as hung and the run stops (default 10000)."
    )

    package var configurationToRun: RunConfiguration
    package var outputDirectory: String
    package var quiet: Bool
    package var commandLine: [String]
    /// `--shard i/n`: this run is one slice of a larger run (recorded in the manifest).
    package var shard: ShardSpec?
    /// `--no-report`: skip report.html and summary.md.
    package var noReport = false
    /// `--threshold`s, judged besides the default ones (``RunVerdict/thresholds(strategies:extra:)``).
    package var thresholds: [Threshold] = []
    /// `--wide`: print every outcome's count.
    package var wide = false

    package init(arguments: ParsedArguments) throws(CLIError) {
        guard arguments.positionals.isEmpty else { throw .unexpectedArgument(arguments.positionals[0]) }
        let journeys = arguments[Self.journeys]
        let mix = arguments[.mix]
        configurationToRun = RunConfiguration(
            journeys: UInt64(journeys),
            seed: arguments[.seed],
            threads: arguments[Self.threads],
            strategies: arguments[.strategies],
            raceShare: arguments[.raceShare],
            mix: mix
        )
        if let timeout = arguments[Self.journeyTimeout] {
            configurationToRun.journeyTimeoutNanos = UInt64(timeout) * 1_000_000
        }
        configurationToRun.coreFaults = arguments[.coreFaults]
        configurationToRun.schedule = try ScheduleMode.parse(arguments)
        configurationToRun.execAdapters = try Self.execAdapters(
            from: arguments,
            strategies: &configurationToRun.strategies,
            strategiesGiven: arguments.contains(Option.strategies),
            ttlSeconds: StrategyContext(mix: mix).ttlSeconds
        )
        try Self.probe(configurationToRun.execAdapters)
        configurationToRun.openLoop = try Self.openLoop(from: arguments)
        if let duration = try Self.duration(from: arguments) {
            Self.apply(durationNanos: duration, to: &configurationToRun)
        }
        configurationToRun.warmupJourneys = UInt64(arguments[Self.warmup])
        shard = try Self.shard(from: arguments, journeys: UInt64(journeys))
        if let shard { configurationToRun = Self.restrict(configurationToRun, to: shard) }
        outputDirectory = arguments[.out] ?? "Reports/latest"
        quiet = arguments[.quiet]
        noReport = arguments[.noReport]
        thresholds = try Self.thresholds(from: arguments, strategies: configurationToRun.strategies)
        wide = arguments[Self.wide]
        commandLine = ["deeplink-bench", "run"] + arguments.givenValues + arguments.givenFlags
    }

    package mutating func run(io: CommandIO) throws -> Int32 {
        configurationToRun.trappedJourneys = try TrapSupervisor.childSetUp()
        if ProcessInfo.processInfo.environment[InstructionCount.countedVariable] != nil {
            configurationToRun.pollNanos = configurationToRun.journeyTimeoutNanos
        }
        try OutputDirectory.check(outputDirectory, replacingReport: true)
        let configuration = configurationToRun
        var manifest = RunManifest.current(commandLine: commandLine)
        manifest.shard = shard?.description
        let style = ProgressReporter.Style.choose(stderrIsTerminal: io.stderrIsTerminal, quiet: quiet)
        var progress = ProgressReporter(
            total: configuration.durationNanos == nil ? configuration.journeys : 0,
            style: style,
            startNanos: ProgressReporter.monotonicNanos()
        )
        let result = Runner.run(configuration) { done in
            if let text = progress.update(completed: done, nowNanos: ProgressReporter.monotonicNanos()) { io.err(text) }
        }
        let ran = result.configuration.journeys
        if let text = progress.finish(completed: ran, nowNanos: ProgressReporter.monotonicNanos()) {
            io.err(text)
        }
        let runID = Self.runID(seed: configuration.seed, startTime: manifest.startTime)
        var report = result.report(runID: runID, manifest: manifest, peakRSSBytes: ResourceUsage.peakRSSBytes())
        report.thresholds = RunVerdict.thresholds(strategies: report.strategies.map(\.name), extra: thresholds)
        try ReportWriter.write(report, to: outputDirectory)
        if let notice = DisturbanceNotice.terminalText(result.disturbance) { io.out(notice + "\n") }
        io.out(SummaryTable.render(result, report: report, wide: wide))
        if let line = result.openLoopSummaryLine { io.out(line) }
        io.out(Self.execSummary(configuration.execAdapters))
        io.out("reports: \(outputDirectory)/ (summary.csv, thresholds.csv, …: Reports/README.md)\n")
        if !noReport { io.out(ReportCommand.attach(to: outputDirectory, io: io)) }
        let verdict = RunVerdict(report)
        defer { io.out(verdict.line + "\n") }
        if let hung = result.hung {
            io.err(
                "error: run: the watchdog stopped the run: \(hung.strategy.rawValue) did not finish journey "
                    + "\(hung.index) within \(hung.runningNanos / 1_000_000) ms (reported as hung; the report holds "
                    + "what finished). Replay it: deeplink-bench replay --seed \(configuration.seed) "
                    + "\(ReplayCommand.journey.name) \(hung.index)\n"
            )
            return 1
        }
        if result.undecidedJourneys > 0 {
            io.err("warning: the oracle left \(result.undecidedJourneys) journeys undecided (a generator defect)\n")
        }
        return verdict.exitStatus
    }

    /// `20261130T224137Z-s42`: the start time (compact, UTC) and the seed.
    static func runID(seed: UInt64, startTime: String) -> String {
        let compact = String(startTime.unicodeScalars.filter { $0 != "-" && $0 != ":" }.prefix(15))
        return "\(compact)Z-s\(seed)"
    }
}
