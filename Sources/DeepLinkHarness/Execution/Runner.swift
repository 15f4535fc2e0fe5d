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
public struct RunConfiguration: Sendable {
    public var journeys: UInt64
    /// The first journey index (sharded runs start elsewhere).
    public var firstIndex: UInt64
    /// For one shard of a larger run: that run's journey count (`--journeys`); nil otherwise.
    public var wholeRunJourneys: UInt64? = nil
    public var seed: UInt64
    public var threads: Int
    public var strategies: [StrategyKind]
    /// Share of `core` journeys delivered from two threads at once.
    public var raceShare: Double
    public var mix: ScenarioMix
    /// Violating journeys kept per strategy (the lowest indices).
    public var violationLimit: Int
    /// Open loop (`--rate`): journeys arrive at a fixed rate instead of as fast as possible; nil
    /// for a closed-loop run. See ``OpenLoopSchedule``.
    public var openLoop: OpenLoopParameters? = nil
    /// The watchdog's limit: a journey still running after this long is reported as `hung` and
    /// the run stops with a report of what finished (closed loop).
    public var journeyTimeoutNanos: UInt64 = 10_000_000_000
    /// Deliberate miswirings of `core`, for tests of the harness itself.
    public var coreFaults: CoreStrategy.Faults = []
    /// How `core`'s racing journeys are interleaved (`--schedule`).
    public var schedule: ScheduleMode = .default
    /// The child processes of the run's `exec:NAME` strategies (`run --exec`).
    public var execAdapters: [ExecAdapter] = []
    /// Journeys a strategy trapped on in an earlier attempt of a supervised run: counted as
    /// `trapped`, not run again.
    public var trappedJourneys: [TrappedJourney] = []
    /// Where the run's disturbance readings come from (the machine, or a test's script).
    public var disturbanceSource: any DisturbanceSource = ProcDisturbanceSource()
    /// When the readings mark the run disturbed.
    public var disturbanceThresholds = Disturbance.Thresholds()
    /// A time-based run (`run --duration`, closed loop): workers stop claiming chunks once this
    /// long has passed since the start, and ``journeys`` is only a cap. Every chunk claimed runs
    /// to its end, so the journeys run are the first ones, one range; the result's configuration
    /// says how many. Nil: run ``journeys`` journeys.
    public var durationNanos: UInt64? = nil
    /// Journeys each worker thread runs through fresh instances of the strategies before the
    /// start (`run --warmup`), counted nowhere. They come from another seed and never race, so the
    /// counted journeys are the same as without them. See ``Worker/warmUp(oracle:)``.
    public var warmupJourneys: UInt64 = 0

    public init(
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
    public init(_ configuration: RunConfiguration) {
        self.init(seed: configuration.seed, mix: configuration.mix, raceShare: configuration.raceShare)
    }
}

/// One violating journey as the runner found it; the trace is rebuilt from `(seed, index)` when
/// the report is written, so workers never format strings.
///
/// Thread safety: a value type; `Sendable`.
public struct JourneyViolation: Sendable, Hashable {
    public var index: UInt64
    public var scenario: ScenarioClass
    public var expected: JourneyOutcome
    public var actual: JourneyOutcome
}

/// What one strategy did over the journeys one thread (or, merged, all threads) ran.
///
/// Thread safety: a value type; `Sendable`.
public struct StrategyTally: Sendable {
    public var kind: StrategyKind
    public var journeys: UInt64 = 0
    /// Journeys per (scenario class, outcome): index `class * JourneyOutcome.count + outcome`.
    public var counts: [UInt64]
    /// Time spent inside the strategy (its `run` and `prepare`), summed over threads.
    public var strategyNanos: UInt64 = 0
    /// Bytes allocated inside the strategy (jemalloc's per-thread counter; 0 without jemalloc).
    public var allocatedBytes: UInt64 = 0
    /// Thread time the harness spent around this strategy's journeys: classifying and tallying
    /// them, plus this strategy's equal share of generating the journeys and asking the oracle
    /// (shared by every strategy of the run). Summed over threads.
    public var harnessNanos: UInt64 = 0
    /// Bytes the harness allocated around this strategy's journeys (same split as
    /// ``harnessNanos``).
    public var harnessAllocatedBytes: UInt64 = 0
    /// Journeys marked ``Journey/racing`` (their first capture and the following signal are
    /// delivered from two threads at once by strategies that race) and their time inside the
    /// strategy, summed over threads.
    public var racingJourneys: UInt64 = 0
    public var racingNanos: UInt64 = 0
    /// Per-journey time inside the strategy, racing journeys (``Journey/racing``) and the others
    /// apart (latency.csv's `journey_racing` and `journey_non_racing`). The racing one shares an
    /// empty storage until its first record (a strategy may meet none).
    public var racingJourneyNanos = StrategyTally.emptyHistogram
    public var nonRacingJourneyNanos = Histogram()

    /// Per-journey time inside the strategy, all journeys (latency.csv's `journey`): the two
    /// kinds merged, which is exact (same bucket layout, exact minimum and maximum).
    public var journeyNanos: Histogram {
        var all = nonRacingJourneyNanos
        all.merge(racingJourneyNanos)
        return all
    }

    private static let emptyHistogram = Histogram()
    /// Racing journeys whose race inputs were delivered by two distinct threads (OS threads or
    /// fibers), as the race machinery observed them (``StrategyObservation/raceThreads``).
    public var racesOnTwoThreads: UInt64 = 0
    /// Per core operation (parse, validate, enqueue, gate-open to route), when the strategy times
    /// them.
    public var operationNanos: OperationHistograms
    /// The violating journeys with the lowest indices (at most the run's limit), sorted by index.
    public var violations: [JourneyViolation] = []
    /// Journeys per feature and per decision path (`coverage.csv`).
    public var coverage = CoverageCounts()

    public init(kind: StrategyKind) {
        self.kind = kind
        self.counts = [UInt64](repeating: 0, count: ScenarioClass.count * JourneyOutcome.count)
        // Each histogram is ~300 KB; a strategy that records none shares one empty set
        // (measured: 6.1 MB per worker thread with all four strategies, 2.5 MB with this).
        self.operationNanos = kind.timesOperations ? OperationHistograms() : .unused
    }

    /// Journeys with `outcome` in scenario class `scenario`.
    public func count(_ outcome: JourneyOutcome, in scenario: ScenarioClass) -> UInt64 {
        counts[scenario.denseIndex * JourneyOutcome.count + outcome.denseIndex]
    }

    /// Journeys with `outcome`, over all scenario classes.
    public func total(_ outcome: JourneyOutcome) -> UInt64 {
        var sum: UInt64 = 0
        for scenario in 0..<ScenarioClass.count { sum &+= counts[scenario * JourneyOutcome.count + outcome.denseIndex] }
        return sum
    }

    /// Journeys with any violation outcome (``JourneyOutcome/violations``).
    public var violationCount: UInt64 {
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
    public mutating func merge(_ other: StrategyTally, violationLimit limit: Int) {
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
public struct OperationHistograms: Sendable {
    public var parse = Histogram()
    public var validate = Histogram()
    public var enqueue = Histogram()
    public var gateOpenToRoute = Histogram()

    public init() {}

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

    public mutating func merge(_ other: OperationHistograms) {
        parse.merge(other.parse)
        validate.merge(other.validate)
        enqueue.merge(other.enqueue)
        gateOpenToRoute.merge(other.gateOpenToRoute)
    }
}

/// A finished run's numbers before they become report files.
///
/// Thread safety: a value type; `Sendable`.
public struct RunResult: Sendable {
    public var configuration: RunConfiguration
    public var tallies: [StrategyTally]
    public var wallNanos: UInt64
    /// Journeys the oracle left undecided (a generator defect; expected 0).
    public var undecidedJourneys: UInt64
    /// An open-loop run's arrivals and latencies from intended start; nil for a closed-loop run.
    public var openLoop: OpenLoopResult? = nil
    /// Set when the watchdog stopped the run: which strategy hung on which journey. The tallies
    /// then hold only what finished (the hung worker's journeys are not counted) plus that hung
    /// journey.
    public var hung: HungJourney? = nil
    /// What else the machine did during the run, and whether its timings are trustworthy.
    public var disturbance = Disturbance()
}

/// A journey on which a strategy (by its index in the run's strategies) killed the process.
///
/// Thread safety: a value type; `Sendable`.
public struct TrappedJourney: Sendable, Hashable {
    public var strategyIndex: Int
    public var journey: UInt64

    public init(strategyIndex: Int, journey: UInt64) {
        self.strategyIndex = strategyIndex
        self.journey = journey
    }
}

/// A journey the watchdog gave up on.
///
/// Thread safety: a value type; `Sendable`.
public struct HungJourney: Sendable, Equatable {
    public var strategy: StrategyKind
    public var index: UInt64
    public var runningNanos: UInt64
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
public enum Runner {
    /// Journeys a closed-loop worker claims at a time.
    public static let chunkSize = 512

    /// Runs `configuration`; `progress` is called on the calling thread every ~100 ms with the
    /// journeys completed so far (and once at the end). A journey still running after the
    /// configuration's timeout stops the run (``RunResult/hung``).
    public static func run(
        _ configuration: RunConfiguration,
        progress: (UInt64) -> Void = { _ in }
    ) -> RunResult {
        WorkerPool(configuration: configuration).run(progress: progress)
    }

    /// CLOCK_MONOTONIC in nanoseconds.
    @inline(__always)
    public static func monotonicNanos() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}
