import Foundation

/// `run`'s options for open loop (`--rate`, `--max-lag-ns`) and sharding (`--shard`).
extension RunCommand {
    static let rate = Option(
        "--rate",
        value: "R",
        // NaN, infinities, negatives and rates below 1/s all fail the range.
        as: .number(
            in: minimumRate...maximumRate,
            expected: "journeys per second, a number from 1 to 1e9 (below 1/s arrivals are seconds to forever apart)"
        ),
        help: "Open loop: R journeys arriving per second, all threads together (default: closed loop)."
    )
    static let maxLag = Option(
        "--max-lag-ns",
        value: "N",
        as: .unsigned,
        help: "Open loop: drop an arrival not started N ns after its intended start (default 1000000000)."
    )
    static let shard = Option(
        "--shard",
        value: "i/n",
        as: ValueParser(ShardSpec.parse, message: { "\($0)" }),
        help: "Run only the i-th (from 0) of n disjoint slices of the journeys."
    )

    /// The most worker threads a run (or a capacity sweep) starts. Each thread costs a few MB of
    /// histograms, and far past the core count a run measures the scheduler, not the code; 256
    /// keeps the harness under 1 GB (Reports/README.md) and covers machines of up to 256 cores.
    package static let maximumThreads = 256

    /// A `--threads` (or `--max-threads`) value: 1 to ``maximumThreads``.
    static let threadCount = ValueParser.integer(
        in: 1...maximumThreads,
        expected: "an integer from 1 to \(maximumThreads) (each thread costs about 3 MB; far past the core count a "
            + "run measures the scheduler)"
    )

    /// The default thread count: one per core, at most ``maximumThreads``.
    static var defaultThreads: Int { min(maximumThreads, max(1, ProcessInfo.processInfo.activeProcessorCount)) }

    /// The largest `--rate` accepted: one arrival per nanosecond.
    static let maximumRate = 1e9
    /// The smallest `--rate` accepted: one arrival per second. Below it a run of any size waits
    /// for hours between arrivals (at 1e-300/s, forever), which measures nothing.
    static let minimumRate = 1.0

    /// `--rate` and `--max-lag-ns`; nil for a closed-loop run.
    static func openLoop(from arguments: ParsedArguments) throws(CLIError) -> OpenLoopParameters? {
        let maxLag = arguments[maxLag]
        guard let rate = arguments[rate] else {
            if maxLag != nil {
                throw .invalidInput("\(Self.maxLag.name) applies to open-loop runs only: add \(Self.rate.name) R")
            }
            return nil
        }
        return OpenLoopParameters(ratePerSecond: rate, maxLagNanos: maxLag ?? OpenLoopParameters.defaultMaxLagNanos)
    }

    /// `--shard i/n`, checked against the journey count; nil when absent.
    static func shard(from arguments: ParsedArguments, journeys: UInt64) throws(CLIError) -> ShardSpec? {
        guard let shard = arguments[shard] else { return nil }
        guard UInt64(shard.count) <= journeys else {
            throw .invalidInput(
                "\(Self.shard.name) \(shard): \(shard.count) shards of \(journeys) journeys would leave shards empty"
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
    /// Two lines on an open-loop run's arrivals for the console (nil for closed loop).
    package var openLoopSummaryLine: String? {
        guard let openLoop else { return nil }
        let counts = openLoop.arrivals
        let offered = ReportSchema.decimal(openLoop.parameters.ratePerSecond, digits: 3)
        let achieved = wallNanos == 0 ? 0 : Double(counts.started) * 1e9 / Double(wallNanos)
        // Two lines, so that each fits the summary's width.
        return "open loop: offered \(offered)/s, achieved \(ReportSchema.decimal(achieved, digits: 0))/s; "
            + "\(counts.started) started, max start lag \(counts.maxStartLagNanos) ns\n"
            + "  \(counts.lateStarts) late (> \(OpenLoopSchedule.lateToleranceNanos) ns), "
            + "\(counts.dropped) dropped (> \(openLoop.parameters.maxLagNanos) ns)\n"
    }
}
