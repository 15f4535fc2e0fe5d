import DeepLinkCore
import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// What to run: how many journeys from which seed, on how many threads, through which strategies.
///
/// Thread safety: a value type; `Sendable`.
package struct RunConfiguration: Sendable {
    package var journeys: UInt64
    /// The first journey index (sharded runs start elsewhere).
    package var firstIndex: UInt64
    /// For one shard of a larger run: that run's journey count (`--journeys`); nil otherwise.
    package var wholeRunJourneys: UInt64? = nil
    package var seed: UInt64
    package var threads: Int
    package var strategies: [StrategyKind]
    /// Share of `core` journeys delivered from two threads at once.
    package var raceShare: Double
    package var mix: ScenarioMix
    /// Violating journeys kept per strategy (the lowest indices).
    package var violationLimit: Int
    /// Open loop (`--rate`): journeys arrive at a fixed rate instead of as fast as possible; nil
    /// for a closed-loop run. See ``OpenLoopSchedule``.
    package var openLoop: OpenLoopParameters? = nil
    /// The watchdog's limit: a journey still running after this long is reported as `hung` and
    /// the run stops with a report of what finished (closed loop).
    package var journeyTimeoutNanos: UInt64 = 10_000_000_000
    /// Deliberate miswirings of `core`, for tests of the harness itself.
    package var coreFaults: CoreStrategy.Faults = []
    /// How `core`'s racing journeys are interleaved (`--schedule`).
    package var schedule: ScheduleMode = .default
    /// The child processes of the run's `exec:NAME` strategies (`run --exec`).
    package var execAdapters: [ExecAdapter] = []
    /// Journeys a strategy trapped on in an earlier attempt of a supervised run: counted as
    /// `trapped`, not run again.
    package var trappedJourneys: [TrappedJourney] = []
    /// Where the run's disturbance readings come from (the machine, or a test's script).
    package var disturbanceSource: any DisturbanceSource = ProcDisturbanceSource()
    /// When the readings mark the run disturbed.
    package var disturbanceThresholds = Disturbance.Thresholds()
    /// A time-based run (`run --duration`, closed loop): workers stop claiming chunks once this
    /// long has passed since the start, and ``journeys`` is only a cap. Every chunk claimed runs
    /// to its end, so the journeys run are the first ones, one range; the result's configuration
    /// says how many. Nil: run ``journeys`` journeys.
    package var durationNanos: UInt64? = nil
    /// Journeys each worker thread runs through fresh instances of the strategies before the
    /// start (`run --warmup`), counted nowhere. They come from another seed and never race, so the
    /// counted journeys are the same as without them. See ``Worker/warmUp(oracle:)``.
    package var warmupJourneys: UInt64 = 0

    package init(
        journeys: UInt64,
        firstIndex: UInt64 = 0,
        seed: UInt64,
        threads: Int,
        strategies: [StrategyKind] = StrategyKind.allCases,
        raceShare: Double = 0,
        mix: ScenarioMix = .default,
        violationLimit: Int = 1_000
    ) {
        self.journeys = journeys
        self.firstIndex = firstIndex
        self.seed = seed
        self.threads = max(1, threads)
        self.strategies = strategies
        self.raceShare = raceShare
        self.mix = mix
        self.violationLimit = violationLimit
    }
}

extension JourneyGenerator {
    /// The generator of `configuration`'s journeys (its seed, mix and race share).
    package init(_ configuration: RunConfiguration) {
        self.init(seed: configuration.seed, mix: configuration.mix, raceShare: configuration.raceShare)
    }
}

/// One violating journey as the runner found it; the trace is rebuilt from `(seed, index)` when
/// the report is written, so workers never format strings.
///
/// Thread safety: a value type; `Sendable`.
package struct JourneyViolation: Sendable, Hashable {
    package var index: UInt64
    package var scenario: ScenarioClass
    package var expected: JourneyOutcome
    package var actual: JourneyOutcome
}

/// What one strategy did over the journeys one thread (or, merged, all threads) ran.
///
/// Thread safety: a value type; `Sendable`.
package struct StrategyTally: Sendable {
    package var kind: StrategyKind
    package var journeys: UInt64 = 0
    /// Journeys per (scenario class, outcome): index `class * JourneyOutcome.count + outcome`.
    package var counts: [UInt64]
    /// Time spent inside the strategy (its `run` and `prepare`), summed over threads.
    package var strategyNanos: UInt64 = 0
    /// Bytes allocated inside the strategy (jemalloc's per-thread counter; 0 without jemalloc).
    package var allocatedBytes: UInt64 = 0
    /// Thread time the harness spent around this strategy's journeys: classifying and tallying
    /// them, plus this strategy's equal share of generating the journeys and asking the oracle
    /// (shared by every strategy of the run). Summed over threads.
    package var harnessNanos: UInt64 = 0
    /// Bytes the harness allocated around this strategy's journeys (same split as
    /// ``harnessNanos``).
    package var harnessAllocatedBytes: UInt64 = 0
    /// Journeys marked ``Journey/racing`` (their first capture and the following signal are
    /// delivered from two threads at once by strategies that race) and their time inside the
    /// strategy, summed over threads.
    package var racingJourneys: UInt64 = 0
    package var racingNanos: UInt64 = 0
    /// Per-journey time inside the strategy, racing journeys (``Journey/racing``) and the others
    /// apart (latency.csv's `journey_racing` and `journey_non_racing`). The racing one shares an
    /// empty storage until its first record (a strategy may meet none).
    package var racingJourneyNanos = StrategyTally.emptyHistogram
    package var nonRacingJourneyNanos = Histogram()

    /// Per-journey time inside the strategy, all journeys (latency.csv's `journey`): the two
    /// kinds merged, which is exact (same bucket layout, exact minimum and maximum).
    package var journeyNanos: Histogram {
        var all = nonRacingJourneyNanos
        all.merge(racingJourneyNanos)
        return all
    }

    private static let emptyHistogram = Histogram()
    /// Racing journeys whose race inputs were delivered by two distinct threads (OS threads or
    /// fibers), as the race machinery observed them (``StrategyObservation/raceThreads``).
    package var racesOnTwoThreads: UInt64 = 0
    /// Per core operation (parse, validate, enqueue, gate-open to route), when the strategy times
    /// them.
    package var operationNanos: OperationHistograms
    /// The violating journeys with the lowest indices (at most the run's limit), sorted by index.
    package var violations: [JourneyViolation] = []
    /// Journeys per feature and per decision path (`coverage.csv`).
    package var coverage = CoverageCounts()

    package init(kind: StrategyKind) {
        self.kind = kind
        self.counts = [UInt64](repeating: 0, count: ScenarioClass.count * JourneyOutcome.count)
        // Each histogram is ~300 KB; a strategy that records none shares one empty set
        // (measured: 6.1 MB per worker thread with all four strategies, 2.5 MB with this).
        self.operationNanos = kind.timesOperations ? OperationHistograms() : .unused
    }

    /// Journeys with `outcome` in scenario class `scenario`.
    package func count(_ outcome: JourneyOutcome, in scenario: ScenarioClass) -> UInt64 {
        counts[scenario.denseIndex * JourneyOutcome.count + outcome.denseIndex]
    }

    /// Journeys with `outcome`, over all scenario classes.
    package func total(_ outcome: JourneyOutcome) -> UInt64 {
        var sum: UInt64 = 0
        for scenario in 0..<ScenarioClass.count { sum &+= counts[scenario * JourneyOutcome.count + outcome.denseIndex] }
        return sum
    }

    /// Journeys with any violation outcome (``JourneyOutcome/violations``).
    package var violationCount: UInt64 {
        JourneyOutcome.violations.reduce(0) { $0 &+ total($1) }
    }

    /// Counts one classified journey (its outcome, features and decision paths) and keeps it when
    /// it is a violation and room is left.
    @inline(__always)
    mutating func record(
        _ outcome: JourneyOutcome,
        journey: Journey,
        observation: StrategyObservation,
        expected: JourneyOutcome,
        violationLimit limit: Int
    ) {
        counts[journey.scenario.denseIndex * JourneyOutcome.count + outcome.denseIndex] &+= 1
        coverage.count(features: journey)
        coverage.count(paths: observation.paths)
        coverage.count(schedule: observation.schedule)
        if outcome.isViolation, violations.count < limit {
            violations.append(
                JourneyViolation(index: journey.index, scenario: journey.scenario, expected: expected, actual: outcome)
            )
        }
    }

    /// Adds `other` (same kind) into this tally; violations keep the lowest `limit` indices.
    package mutating func merge(_ other: StrategyTally, violationLimit limit: Int) {
        journeys &+= other.journeys
        for index in counts.indices { counts[index] &+= other.counts[index] }
        strategyNanos &+= other.strategyNanos
        allocatedBytes &+= other.allocatedBytes
        harnessNanos &+= other.harnessNanos
        harnessAllocatedBytes &+= other.harnessAllocatedBytes
        racingJourneys &+= other.racingJourneys
        racingNanos &+= other.racingNanos
        racingJourneyNanos.merge(other.racingJourneyNanos)
        nonRacingJourneyNanos.merge(other.nonRacingJourneyNanos)
        racesOnTwoThreads &+= other.racesOnTwoThreads
        operationNanos.merge(other.operationNanos)
        coverage.merge(other.coverage)
        violations = Array((violations + other.violations).sorted { $0.index < $1.index }.prefix(limit))
    }
}

/// Latency histograms of the core's operations, recorded by strategies that drive DeepLinkCore.
///
/// Thread safety: a value type; one per worker thread, merged at the end.
package struct OperationHistograms: Sendable {
    package var parse = Histogram()
    package var validate = Histogram()
    package var enqueue = Histogram()
    package var gateOpenToRoute = Histogram()

    package init() {}

    /// Four histograms sharing one process-wide empty storage (copy on write): free for a
    /// strategy that records nothing into them; a first record copies, as with any histogram copy.
    static var unused: OperationHistograms {
        OperationHistograms(parse: empty, validate: empty, enqueue: empty, gateOpenToRoute: empty)
    }

    private static let empty = Histogram()

    private init(parse: Histogram, validate: Histogram, enqueue: Histogram, gateOpenToRoute: Histogram) {
        self.parse = parse
        self.validate = validate
        self.enqueue = enqueue
        self.gateOpenToRoute = gateOpenToRoute
    }

    package mutating func merge(_ other: OperationHistograms) {
        parse.merge(other.parse)
        validate.merge(other.validate)
        enqueue.merge(other.enqueue)
        gateOpenToRoute.merge(other.gateOpenToRoute)
    }
}

/// A finished run's numbers before they become report files.
///
/// Thread safety: a value type; `Sendable`.
package struct RunResult: Sendable {
    package var configuration: RunConfiguration
    package var tallies: [StrategyTally]
    package var wallNanos: UInt64
    /// Journeys the oracle left undecided (a generator defect; expected 0).
    package var undecidedJourneys: UInt64
    /// An open-loop run's arrivals and latencies from intended start; nil for a closed-loop run.
    package var openLoop: OpenLoopResult? = nil
    /// Set when the watchdog stopped the run: which strategy hung on which journey. The tallies
    /// then hold only what finished (the hung worker's journeys are not counted) plus that hung
    /// journey.
    package var hung: HungJourney? = nil
    /// What else the machine did during the run, and whether its timings are trustworthy.
    package var disturbance = Disturbance()
}

/// A journey on which a strategy (by its index in the run's strategies) killed the process.
///
/// Thread safety: a value type; `Sendable`.
package struct TrappedJourney: Sendable, Hashable {
    package var strategyIndex: Int
    package var journey: UInt64

    package init(strategyIndex: Int, journey: UInt64) {
        self.strategyIndex = strategyIndex
        self.journey = journey
    }
}

/// A journey the watchdog gave up on.
///
/// Thread safety: a value type; `Sendable`.
package struct HungJourney: Sendable, Equatable {
    package var strategy: StrategyKind
    package var index: UInt64
    package var runningNanos: UInt64
}

/// Streams journeys through the strategies on a pool of worker threads. Closed and open loop share
/// everything but where arrivals come from (``ArrivalSource``): each worker takes a batch of
/// journeys (a claimed chunk of indices in closed loop, the next due arrival in open loop),
/// generates each from `(seed, index)`, asks the oracle, and runs every strategy over the batch
/// with one measurement step per journey (``Worker``): the strategy's own time and allocations are
/// read around `run` alone; everything else the worker does for that strategy is the harness's.
/// Workers merge their tallies once at the end, so memory stays flat in the journey count and the
/// counters do not depend on thread count or scheduling.
///
/// Thread safety: ``run(_:progress:)`` may be called from any thread; it blocks until done.
package enum Runner {
    /// Journeys a closed-loop worker claims at a time.
    package static let chunkSize = 512

    /// Runs `configuration`; `progress` is called on the calling thread every ~100 ms with the
    /// journeys completed so far (and once at the end). A journey still running after the
    /// configuration's timeout stops the run (``RunResult/hung``).
    package static func run(
        _ configuration: RunConfiguration,
        progress: (UInt64) -> Void = { _ in }
    ) -> RunResult {
        WorkerPool(configuration: configuration).run(progress: progress)
    }

    /// CLOCK_MONOTONIC in nanoseconds.
    @inline(__always)
    package static func monotonicNanos() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}
