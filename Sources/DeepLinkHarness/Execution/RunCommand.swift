import Foundation

/// `deeplink-bench run`: streams journeys through the strategies, prints a summary table and
/// writes the report directory.
public struct RunCommand: BenchCommand {
    public static let configuration = CommandConfiguration(
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
            OptionSpec("--journeys", value: "N", help: "Journeys to run (default 1000000)."),
            OptionSpec("--seed", value: "S", help: "Seed of the journey generator (default 1)."),
            OptionSpec(
                "--threads",
                value: "T",
                help: "Worker threads, at most \(maximumThreads) (default: one per core)."
            ),
            OptionSpec("--strategies", value: "LIST", help: "Comma-separated strategies (default all)."),
            OptionSpec(
                "--race-share",
                value: "X",
                help: "Share of journeys (every strategy) delivered from two threads (default 0.1; exec: in order)."
            ),
            OptionSpec("--out", value: "DIR", help: "Report directory (default Reports/latest)."),
            OptionSpec("--mix", value: "FILE", help: "JSON scenario mix overriding the built-in default."),
            .flag("--quiet", help: "No progress output."),
            OptionSpec(
                "--core-faults",
                value: "LIST",
                help: "Miswire core on purpose (comma-separated fault names) to see the checker catch it."
            ),
            OptionSpec(
                "--journey-timeout-ms",
                value: "MS",
                help: "Watchdog: a journey running longer is reported as hung and the run stops (default 10000)."
            ),
        ] + ScheduleMode.options + scaleOptions + durationOptions + execOptions + verdictOptions
            + [ReportCommand.noReportOption]
    )

    public var configurationToRun: RunConfiguration
    public var outputDirectory: String
    public var quiet: Bool
    public var commandLine: [String]
    /// `--shard i/n`: this run is one slice of a larger run (recorded in the manifest).
    public var shard: ShardSpec?
    /// `--no-report`: skip report.html and summary.md.
    public var noReport = false
    /// `--threshold`s, judged besides the default ones (``RunVerdict/thresholds(strategies:extra:)``).
    public var thresholds: [Threshold] = []
    /// `--wide`: print every outcome's count.
    public var wide = false

    public init(arguments: ParsedArguments) throws(CLIError) {
        guard arguments.positionals.isEmpty else { throw .unexpectedArgument(arguments.positionals[0]) }
        let journeys = try arguments.integer("--journeys", in: 1...10_000_000_000) ?? 1_000_000
        let seed = try arguments.unsigned("--seed") ?? 1
        let threads = try Self.threads("--threads", from: arguments) ?? Self.defaultThreads
        var strategies = StrategyKind.allCases
        if let list = arguments.string("--strategies") {
            switch StrategyKind.parseList(list) {
            case .success(let kinds): strategies = kinds
            case .failure(let error):
                throw .invalidValue(
                    option: "--strategies",
                    value: error.name,
                    expected: "a comma-separated list of "
                        + StrategyKind.allCases.map(\.rawValue).joined(separator: ", ")
                )
            }
        }
        let raceShare = try arguments.double("--race-share", in: 0...1) ?? 0.1
        var mix = ScenarioMix.default
        if let path = arguments.string("--mix") {
            do {
                mix = try ScenarioMix.load(path: path)
            } catch {
                throw .invalidInput(error.message)
            }
        }
        configurationToRun = RunConfiguration(
            journeys: UInt64(journeys),
            seed: seed,
            threads: threads,
            strategies: strategies,
            raceShare: raceShare,
            mix: mix
        )
        if let timeout = try arguments.integer("--journey-timeout-ms", in: 1...3_600_000) {
            configurationToRun.journeyTimeoutNanos = UInt64(timeout) * 1_000_000
        }
        configurationToRun.coreFaults = try CoreStrategy.Faults.parse(arguments)
        configurationToRun.schedule = try ScheduleMode.parse(arguments)
        configurationToRun.execAdapters = try Self.execAdapters(
            from: arguments,
            strategies: &configurationToRun.strategies,
            strategiesGiven: arguments.string("--strategies") != nil,
            ttlSeconds: StrategyContext(mix: mix).ttlSeconds
        )
        try Self.probe(configurationToRun.execAdapters)
        configurationToRun.openLoop = try Self.openLoop(from: arguments)
        if let duration = try Self.duration(from: arguments) {
            Self.apply(durationNanos: duration, to: &configurationToRun)
        }
        let warmup = try arguments.integer(Self.warmupOption, in: 0...10_000_000) ?? Self.defaultWarmupJourneys
        configurationToRun.warmupJourneys = UInt64(warmup)
        shard = try Self.shard(from: arguments, journeys: UInt64(journeys))
        if let shard { configurationToRun = Self.restrict(configurationToRun, to: shard) }
        outputDirectory = arguments.string("--out") ?? "Reports/latest"
        quiet = arguments.has("--quiet")
        noReport = arguments.has("--no-report")
        thresholds = try Self.thresholds(from: arguments, strategies: configurationToRun.strategies)
        wide = arguments.has(Self.wideOption)
        var line = ["deeplink-bench", "run"]
        for (name, values) in arguments.repeated.sorted(by: { $0.key < $1.key }) {
            for value in values { line += [name, value] }
        }
        for flag in arguments.flags.sorted() { line.append(flag) }
        commandLine = line
    }

    public mutating func run(io: CommandIO) throws -> Int32 {
        configurationToRun.trappedJourneys = try TrapSupervisor.childSetUp()
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
                    + "--journey \(hung.index)\n"
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
