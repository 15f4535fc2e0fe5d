/// `run`'s options for open loop (`--rate`, `--max-lag-ns`) and sharding (`--shard`).
extension RunCommand {
    /// The options this file adds to `run`.
    static let scaleOptions: [OptionSpec] = [
        OptionSpec(
            "--rate",
            value: "R",
            help: "Open loop: R journeys arriving per second, all threads together (default: closed loop)."
        ),
        OptionSpec(
            "--max-lag-ns",
            value: "N",
            help: "Open loop: drop an arrival not started N ns after its intended start (default 1000000000)."
        ),
        OptionSpec("--shard", value: "i/n", help: "Run only the i-th (from 0) of n disjoint slices of the journeys."),
    ]

    /// The largest `--rate` accepted: one arrival per nanosecond.
    static let maximumRate = 1e9

    /// `--rate` and `--max-lag-ns`, validated; nil for a closed-loop run.
    static func openLoop(from arguments: ParsedArguments) throws(CLIError) -> OpenLoopParameters? {
        let maxLag = try arguments.unsigned("--max-lag-ns")
        guard arguments.values["--rate"] != nil else {
            if maxLag != nil { throw .invalidInput("--max-lag-ns applies to open-loop runs only: add --rate R") }
            return nil
        }
        guard let rate = try arguments.double("--rate", in: 0...maximumRate), rate > 0 else {
            throw .invalidValue(
                option: "--rate",
                value: arguments.values["--rate"] ?? "",
                expected: "journeys per second, a number above 0 and at most 1e9"
            )
        }
        return OpenLoopParameters(ratePerSecond: rate, maxLagNanos: maxLag ?? OpenLoopParameters.defaultMaxLagNanos)
    }

    /// `--shard i/n`, validated against the journey count; nil when absent.
    static func shard(from arguments: ParsedArguments, journeys: UInt64) throws(CLIError) -> ShardSpec? {
        guard let text = arguments.values["--shard"] else { return nil }
        let shard: ShardSpec
        do {
            shard = try ShardSpec.parse(text)
        } catch {
            throw .invalidInput("--shard \(error)")
        }
        guard UInt64(shard.count) <= journeys else {
            throw .invalidInput(
                "--shard \(shard): \(shard.count) shards of \(journeys) journeys would leave shards empty"
            )
        }
        return shard
    }

    /// `configuration` restricted to `shard`'s slice of its journeys.
    static func restrict(_ configuration: RunConfiguration, to shard: ShardSpec) -> RunConfiguration {
        var restricted = configuration
        let range = shard.range(ofJourneys: configuration.journeys)
        restricted.firstIndex = configuration.firstIndex &+ range.lowerBound
        restricted.journeys = range.upperBound - range.lowerBound
        restricted.wholeRunJourneys = configuration.journeys
        return restricted
    }
}

extension RunResult {
    /// One line on an open-loop run's arrivals for the console (nil for closed loop).
    public var openLoopSummaryLine: String? {
        guard let openLoop else { return nil }
        let counts = openLoop.arrivals
        let offered = ReportSchema.decimal(openLoop.parameters.ratePerSecond, digits: 3)
        let achieved = wallNanos == 0 ? 0 : Double(counts.started) * 1e9 / Double(wallNanos)
        return "open loop: offered \(offered)/s, achieved \(ReportSchema.decimal(achieved, digits: 0))/s; "
            + "\(counts.started) started, \(counts.lateStarts) late (> \(OpenLoopSchedule.lateToleranceNanos) ns), "
            + "\(counts.dropped) dropped (> \(openLoop.parameters.maxLagNanos) ns), "
            + "max start lag \(counts.maxStartLagNanos) ns\n"
    }
}
