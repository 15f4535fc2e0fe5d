import Foundation

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

    /// The most worker threads a run (or a capacity sweep) starts. Measured on 2 cores, 20,000
    /// journeys, after the per-thread histograms were trimmed: peak RSS 35 MB at 1 thread, 56 MB
    /// at 8, 235 MB at 64, 683 MB at 256, 2.6 GB at 1,024 (about 3.2 MB per thread), wall time
    /// 0.3 s, 0.3 s, 0.4 s, 0.8 s, 2.4 s. Far past the core count a run measures the scheduler, not
    /// the code; 256 keeps the harness under 1 GB and covers machines of up to 256 cores.
    public static let maximumThreads = 256

    /// `--threads` (or `--max-threads`), validated against ``maximumThreads``; nil when absent.
    static func threads(_ option: String, from arguments: ParsedArguments) throws(CLIError) -> Int? {
        guard arguments.values[option] != nil else { return nil }
        guard let threads = try? arguments.integer(option, in: 1...maximumThreads) else {
            throw .invalidValue(
                option: option,
                value: arguments.values[option] ?? "",
                expected: "an integer from 1 to \(maximumThreads) (each thread costs about 3 MB; far past the "
                    + "core count a run measures the scheduler)"
            )
        }
        return threads
    }

    /// The default thread count: one per core, at most ``maximumThreads``.
    static var defaultThreads: Int { min(maximumThreads, max(1, ProcessInfo.processInfo.activeProcessorCount)) }

    /// The largest `--rate` accepted: one arrival per nanosecond.
    static let maximumRate = 1e9
    /// The smallest `--rate` accepted: one arrival per second. Below it a run of any size waits
    /// for hours between arrivals (at 1e-300/s, forever), which measures nothing.
    static let minimumRate = 1.0

    /// `--rate` and `--max-lag-ns`, validated; nil for a closed-loop run.
    static func openLoop(from arguments: ParsedArguments) throws(CLIError) -> OpenLoopParameters? {
        let maxLag = try arguments.unsigned("--max-lag-ns")
        guard arguments.values["--rate"] != nil else {
            if maxLag != nil { throw .invalidInput("--max-lag-ns applies to open-loop runs only: add --rate R") }
            return nil
        }
        // NaN, infinities, negatives and rates below 1/s all fail the range.
        guard let rate = try? arguments.double("--rate", in: minimumRate...maximumRate) else {
            throw .invalidValue(
                option: "--rate",
                value: arguments.values["--rate"] ?? "",
                expected:
                    "journeys per second, a number from 1 to 1e9 (below 1/s arrivals are seconds to forever apart)"
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
    /// Two lines on an open-loop run's arrivals for the console (nil for closed loop).
    public var openLoopSummaryLine: String? {
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
