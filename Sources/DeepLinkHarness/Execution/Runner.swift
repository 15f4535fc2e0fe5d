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
    /// Time spent inside the strategy, summed over threads.
    public var busyNanos: UInt64 = 0
    /// Bytes allocated inside the strategy (jemalloc's per-thread counter; 0 without jemalloc).
    public var allocatedBytes: UInt64 = 0
    /// Per-journey time inside the strategy.
    public var journeyNanos = Histogram()
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
        busyNanos &+= other.busyNanos
        allocatedBytes &+= other.allocatedBytes
        journeyNanos.merge(other.journeyNanos)
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

/// Streams journeys through the strategies on worker threads: each thread claims chunks of
/// indices from a shared counter, generates each journey from `(seed, index)`, asks the oracle,
/// runs every strategy over the chunk and classifies the outcomes into its own counters and
/// histograms. Threads merge their tallies once at the end, so memory stays flat in the journey
/// count and the counters do not depend on thread count or scheduling.
///
/// Thread safety: ``run(_:progress:)`` may be called from any thread; it blocks until done.
public enum Runner {
    /// Journeys a worker claims at a time.
    public static let chunkSize = 512

    /// Runs `configuration`; `progress` is called on the calling thread every ~100 ms with the
    /// journeys completed so far (and once at the end).
    public static func run(
        _ configuration: RunConfiguration,
        progress: (UInt64) -> Void = { _ in }
    ) -> RunResult {
        if let parameters = configuration.openLoop {
            return OpenLoopRunner.run(configuration, parameters: parameters, progress: progress)
        }
        let shared = SharedRunState(configuration: configuration)
        let start = monotonicNanos()
        let finished = DispatchSemaphore(value: 0)
        for _ in 0..<configuration.threads {
            let thread = Thread {
                let tally = Worker(shared: shared).work()
                shared.results.withLock { $0.append(tally) }
                finished.signal()
            }
            thread.stackSize = 1 << 22
            thread.start()
        }
        var done = 0
        var hung: HungJourney?
        while done < configuration.threads {
            if finished.wait(timeout: .now() + .milliseconds(100)) == .success {
                done += 1
                continue
            }
            progress(shared.completed.load(ordering: .relaxed))
            guard hung == nil, let stuck = shared.watchdog(limitNanos: configuration.journeyTimeoutNanos) else {
                continue
            }
            // A strategy is stuck: the others stop after their chunk; the stuck thread is left
            // behind (it cannot be interrupted) and ends with the process.
            hung = stuck
            shared.stop.store(true, ordering: .relaxed)
            let others = configuration.threads - 1 - done
            for _ in 0..<max(0, others) where finished.wait(timeout: .now() + .seconds(30)) == .success { done += 1 }
            break
        }
        let wall = monotonicNanos() - start
        progress(shared.completed.load(ordering: .relaxed))
        let results = shared.results.withLock { $0 }
        var tallies = configuration.strategies.map { StrategyTally(kind: $0) }
        var undecided: UInt64 = 0
        for result in results {
            undecided &+= result.undecided
            for index in tallies.indices {
                tallies[index].merge(result.tallies[index], violationLimit: configuration.violationLimit)
            }
        }
        if let hung, let position = configuration.strategies.firstIndex(of: hung.strategy) {
            let journey = shared.generator.journey(at: hung.index)
            tallies[position].journeys &+= 1
            tallies[position].record(
                .hung,
                journey: journey,
                observation: StrategyObservation(),
                expected: Oracle(mix: configuration.mix).expect(journey).outcome,
                violationLimit: configuration.violationLimit
            )
        }
        var result = RunResult(
            configuration: configuration,
            tallies: tallies,
            wallNanos: wall,
            undecidedJourneys: undecided
        )
        result.hung = hung
        return result
    }

    /// CLOCK_MONOTONIC in nanoseconds.
    @inline(__always)
    public static func monotonicNanos() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}

/// State the workers share: the next chunk to claim, journeys completed, finished tallies.
private final class SharedRunState: Sendable {
    let configuration: RunConfiguration
    let generator: JourneyGenerator
    let nextChunk = Atomic<UInt64>(0)
    let completed = Atomic<UInt64>(0)
    let results = Locked<[WorkerResult]>([])
    /// Set by the watchdog: workers stop claiming chunks.
    let stop = Atomic<Bool>(false)
    /// One per worker thread, in the order threads claim them.
    let beacons: [WorkerBeacon]
    let nextBeacon = Atomic<Int>(0)

    init(configuration: RunConfiguration) {
        self.configuration = configuration
        self.generator = JourneyGenerator(configuration)
        self.beacons = (0..<configuration.threads).map { _ in WorkerBeacon() }
    }

    /// The first journey that has run longer than `limitNanos`, if any.
    func watchdog(limitNanos: UInt64) -> HungJourney? {
        let now = Runner.monotonicNanos()
        for beacon in beacons {
            let started = beacon.startNanos.load(ordering: .acquiring)
            guard started != 0, now > started, now - started > limitNanos else { continue }
            let strategy = configuration.strategies[beacon.strategy.load(ordering: .relaxed)]
            return HungJourney(
                strategy: strategy,
                index: beacon.journey.load(ordering: .relaxed),
                runningNanos: now - started
            )
        }
        return nil
    }
}

private struct WorkerResult: Sendable {
    var tallies: [StrategyTally]
    var undecided: UInt64
}

/// One worker thread's loop and private state.
private struct Worker {
    let shared: SharedRunState

    func work() -> WorkerResult {
        let configuration = shared.configuration
        var context = StrategyContext(mix: configuration.mix)
        context.coreFaults = configuration.coreFaults
        context.schedule = configuration.schedule
        for adapter in configuration.execAdapters { context.execAdapters[adapter.name] = adapter }
        let oracle = Oracle(mix: configuration.mix)
        var strategies = configuration.strategies.map { $0.make(context: context) }
        var tallies = configuration.strategies.map { StrategyTally(kind: $0) }
        var undecided: UInt64 = 0
        let chunk = UInt64(Runner.chunkSize)
        var journeys = [Journey]()
        journeys.reserveCapacity(Runner.chunkSize)
        var expectations = [Expectation]()
        expectations.reserveCapacity(Runner.chunkSize)
        let limit = configuration.violationLimit
        let beacon = shared.beacons[shared.nextBeacon.add(1, ordering: .relaxed).oldValue % shared.beacons.count]
        beacon.register()
        let trapped = strategies.indices.map { index in
            Set(configuration.trappedJourneys.filter { $0.strategyIndex == index }.map(\.journey))
        }
        while !shared.stop.load(ordering: .relaxed) {
            let chunkIndex = shared.nextChunk.add(1, ordering: .relaxed).oldValue
            let begin = chunkIndex &* chunk
            guard begin < configuration.journeys else { break }
            let end = min(begin + chunk, configuration.journeys)
            journeys.removeAll(keepingCapacity: true)
            expectations.removeAll(keepingCapacity: true)
            for offset in begin..<end {
                let journey = shared.generator.journey(at: configuration.firstIndex &+ offset)
                let expectation = oracle.expect(journey)
                if expectation.endedPending { undecided &+= 1 }
                journeys.append(journey)
                expectations.append(expectation)
            }
            for strategyIndex in strategies.indices {
                // In place (inout array elements): no copy-on-write of the counters per chunk.
                beacon.strategy.store(strategyIndex, ordering: .relaxed)
                runChunk(
                    beacon: beacon,
                    trapped: trapped[strategyIndex],
                    strategy: &strategies[strategyIndex],
                    tally: &tallies[strategyIndex],
                    journeys: journeys,
                    expectations: expectations,
                    oracle: oracle,
                    limit: limit
                )
            }
            shared.completed.add(end - begin, ordering: .relaxed)
        }
        for index in strategies.indices { strategies[index].finish() }
        return WorkerResult(tallies: tallies, undecided: undecided)
    }

    /// Runs one strategy over one chunk, timing each journey and counting allocations.
    func runChunk(
        beacon: WorkerBeacon,
        trapped: Set<UInt64>,
        strategy: inout any Strategy,
        tally: inout StrategyTally,
        journeys: [Journey],
        expectations: [Expectation],
        oracle: Oracle,
        limit: Int
    ) {
        let allocatedBefore = AllocationCounter.threadAllocatedBytes()
        let chunkStart = Runner.monotonicNanos()
        strategy.prepare(journeys)
        var previous = Runner.monotonicNanos()
        for position in journeys.indices {
            var observation = StrategyObservation()
            if !trapped.isEmpty, trapped.contains(journeys[position].index) {
                // It killed the process in an earlier attempt: counted, never run again.
                tally.record(
                    .trapped,
                    journey: journeys[position],
                    observation: observation,
                    expected: expectations[position].outcome,
                    violationLimit: limit
                )
                previous = Runner.monotonicNanos()
                continue
            }
            beacon.journey.store(journeys[position].index, ordering: .relaxed)
            beacon.startNanos.store(previous, ordering: .releasing)
            strategy.run(journeys[position], into: &observation, metrics: &tally.operationNanos)
            let now = Runner.monotonicNanos()
            tally.journeyNanos.record(now &- previous)
            previous = now
            let outcome = oracle.classify(
                observation,
                expectation: expectations[position],
                journey: journeys[position],
                distinctions: strategy.distinctions
            )
            tally.record(
                outcome,
                journey: journeys[position],
                observation: observation,
                expected: expectations[position].outcome,
                violationLimit: limit
            )
        }
        beacon.startNanos.store(0, ordering: .relaxed)
        tally.busyNanos &+= Runner.monotonicNanos() &- chunkStart
        tally.journeys &+= UInt64(journeys.count)
        tally.allocatedBytes &+= AllocationCounter.threadAllocatedBytes() &- allocatedBefore
    }
}
