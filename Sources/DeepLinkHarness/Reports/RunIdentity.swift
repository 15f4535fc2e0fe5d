/// What a report is a report *of*: the run's id, the workload (seed, journeys, strategies, scenario
/// mix, race share, schedule, loop) and the slice of the journey index space it covers. Written as the
/// `run` object of manifest.json (see `Reports/README.md`).
///
/// `gate` compares only runs whose workload is the same (``differences(from:)``), and `merge`
/// combines only inputs of one workload whose ``journeyRanges`` are disjoint, so every journey is
/// counted once. The run id tells runs apart; it does not decide what may be compared.
///
/// Thread safety: a value type.
package struct RunIdentity: Sendable, Equatable {
    /// The run's id (summary.csv's `run_id`); for a merged report the inputs' ids joined by `+`.
    package var runID: String
    package var seed: UInt64
    /// The journey count of the whole run (`--journeys`), also for one shard of it.
    package var journeys: UInt64
    /// The journey indices this report covers, sorted and disjoint: `[0..<journeys]` for a run,
    /// one slice for a shard (``ShardSpec/range(ofJourneys:)``), the union of the inputs for a
    /// merged report.
    package var journeyRanges: [Range<UInt64>]
    /// Strategy names in run order.
    package var strategies: [String]
    /// SHA-256 of the scenario mix's canonical text (``ScenarioMix/digest``).
    package var mixDigest: String
    /// Share of `core` journeys delivered from two threads at once (`--race-share`).
    package var raceShare: Double
    /// How those racing journeys were interleaved: the `--schedule` spelling
    /// (``ScheduleMode/name``), or `nil` for a report written before runs recorded it (not
    /// comparable with one that did: which interleavings it ran is unknown).
    package var schedule: String?
    /// How journeys arrived: closed loop (as fast as the workers go) or open loop at a rate.
    package var loop: Loop

    /// Closed loop, or open loop at a rate (`run --rate`) with a maximum start lag
    /// (`--max-lag-ns`). A merged open-loop report's rate is the sum of its shards' rates.
    ///
    /// Thread safety: a value type.
    package enum Loop: Sendable, Equatable {
        case closed
        case open(ratePerSecond: Double, maxLagNanos: UInt64)
    }

    package init(
        runID: String = "",
        seed: UInt64 = 0,
        journeys: UInt64,
        journeyRanges: [Range<UInt64>]? = nil,
        strategies: [String] = [],
        mixDigest: String,
        raceShare: Double,
        schedule: String?,
        loop: Loop = .closed
    ) {
        self.runID = runID
        self.seed = seed
        self.journeys = journeys
        self.journeyRanges = journeyRanges ?? [0..<journeys]
        self.strategies = strategies
        self.mixDigest = mixDigest
        self.raceShare = raceShare
        self.schedule = schedule
        self.loop = loop
    }

    /// How many journey indices ``journeyRanges`` covers (nil if that overflows 64 bits, which
    /// only doctored input can do).
    package var coveredJourneys: UInt64? {
        var total: UInt64 = 0
        for range in journeyRanges {
            let (sum, overflow) = total.addingReportingOverflow(range.upperBound - range.lowerBound)
            if overflow { return nil }
            total = sum
        }
        return total
    }

    /// The workload differences that make two reports incomparable, first to last: seed, whole-run
    /// journeys, covered journeys, strategies, mix, race share, schedule, loop. Empty when
    /// comparable. Each
    /// entry reads `seed 1 vs 2` (this report's value first).
    package func differences(from other: RunIdentity, includingCoverage: Bool = true) -> [String] {
        var found: [String] = []
        if seed != other.seed { found.append("seed \(seed) vs \(other.seed)") }
        if journeys != other.journeys { found.append("journeys \(journeys) vs \(other.journeys)") }
        if includingCoverage, journeyRanges != other.journeyRanges {
            found.append("journey ranges \(Self.describe(journeyRanges)) vs \(Self.describe(other.journeyRanges))")
        }
        if strategies != other.strategies {
            found.append(
                "strategies \(strategies.joined(separator: ",")) vs \(other.strategies.joined(separator: ","))"
            )
        }
        if mixDigest != other.mixDigest {
            found.append("scenario mix (digest \(mixDigest.prefix(12))… vs \(other.mixDigest.prefix(12))…)")
        }
        if raceShare != other.raceShare { found.append("race share \(raceShare) vs \(other.raceShare)") }
        if schedule != other.schedule {
            found.append("schedule \(schedule ?? "(not recorded)") vs \(other.schedule ?? "(not recorded)")")
        }
        if loop != other.loop { found.append("loop \(loop) vs \(other.loop)") }
        return found
    }

    /// `0..<250, 500..<750`.
    package static func describe(_ ranges: [Range<UInt64>]) -> String {
        ranges.isEmpty ? "(none)" : ranges.map { "\($0.lowerBound)..<\($0.upperBound)" }.joined(separator: ", ")
    }
}
