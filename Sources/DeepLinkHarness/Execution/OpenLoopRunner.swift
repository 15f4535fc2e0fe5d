import DeepLinkCore
import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The arrival rate and backlog bound of an open-loop run (`deeplink-bench run --rate R
/// [--max-lag-ns N]`).
///
/// Thread safety: a value type; `Sendable`.
public struct OpenLoopParameters: Sendable, Equatable {
    /// Journeys arriving per second, all worker threads together (each thread gets `1/threads`).
    public var ratePerSecond: Double
    /// An arrival still waiting this long after its intended start is dropped (see
    /// ``OpenLoopSchedule``).
    public var maxLagNanos: UInt64

    /// The default bound on an arrival's wait: 1 s.
    public static let defaultMaxLagNanos: UInt64 = 1_000_000_000

    public init(ratePerSecond: Double, maxLagNanos: UInt64 = Self.defaultMaxLagNanos) {
        self.ratePerSecond = ratePerSecond
        self.maxLagNanos = maxLagNanos
    }
}

/// What an open-loop run adds to a ``RunResult``: the arrivals' fate and each strategy's journey
/// latency measured from the intended start.
///
/// Thread safety: a value type; `Sendable`.
public struct OpenLoopResult: Sendable {
    public var parameters: OpenLoopParameters
    /// Started, late, dropped arrivals and the largest start lag, over all threads.
    public var arrivals: ArrivalCounts
    /// Per strategy (in the configuration's order): start lag + the strategy's own time, for every
    /// started arrival. The uncorrected time (service alone) is the tally's `journeyNanos`.
    public var correctedJourneyNanos: [Histogram]
    /// Thread time the harness spent around the strategies (generating journeys, asking the
    /// oracle, classifying outcomes), summed over threads: it competes with the strategies for
    /// the same threads, so it lowers the rate a thread sustains.
    public var harnessNanos: UInt64

    public init(
        parameters: OpenLoopParameters,
        arrivals: ArrivalCounts,
        correctedJourneyNanos: [Histogram],
        harnessNanos: UInt64
    ) {
        self.parameters = parameters
        self.arrivals = arrivals
        self.correctedJourneyNanos = correctedJourneyNanos
        self.harnessNanos = harnessNanos
    }
}

/// Runs a configuration open loop: `configuration.journeys` arrivals at `ratePerSecond`, arrival `k`
/// running journey `firstIndex + k` on thread `k mod threads` (see ``OpenLoopSchedule``). Each
/// started arrival goes through every strategy in turn; a strategy's uncorrected latency is its
/// own time (as in closed loop, metric `journey`), its corrected latency is the arrival's start lag
/// plus its own time (metric `journey_corrected`): each strategy is judged as if it alone served
/// the arrival at the moment the arrival actually started.
///
/// Thread safety: ``run(_:parameters:progress:)`` may be called from any thread; it blocks until
/// done.
enum OpenLoopRunner {
    /// Closer than this to an arrival's intended start, a thread yields instead of sleeping:
    /// sleeping that short overshoots by the kernel's timer slack (~50 µs), which would show up
    /// as start lag the system under test did not cause.
    static let spinWindowNanos: UInt64 = 150_000

    /// The schedule starts this long after every thread is up, so each has prepared its first
    /// journey and is waiting when arrival 0 is due (thread wake-up is not start lag).
    static let leadInNanos: UInt64 = 2_000_000

    static func run(
        _ configuration: RunConfiguration,
        parameters: OpenLoopParameters,
        progress: (UInt64) -> Void
    ) -> RunResult {
        let shared = OpenLoopSharedState(configuration: configuration, parameters: parameters)
        let finished = DispatchSemaphore(value: 0)
        for thread in 0..<configuration.threads {
            let worker = Thread {
                let result = OpenLoopWorker(shared: shared, thread: thread).work()
                shared.results.withLock { $0.append(result) }
                finished.signal()
            }
            worker.stackSize = 1 << 22
            worker.start()
        }
        // Every thread is up before the clock starts, so thread start-up is not start lag.
        while shared.ready.load(ordering: .acquiring) < configuration.threads { sched_yield() }
        let start = Runner.monotonicNanos() + leadInNanos
        shared.startNanos.store(start, ordering: .releasing)
        var done = 0
        while done < configuration.threads {
            if finished.wait(timeout: .now() + .milliseconds(100)) == .success {
                done += 1
            } else {
                progress(shared.completed.load(ordering: .relaxed))
            }
        }
        let end = Runner.monotonicNanos()
        let wall = end > start ? end - start : 0
        progress(shared.completed.load(ordering: .relaxed))
        let results = shared.results.withLock { $0 }
        var tallies = configuration.strategies.map { StrategyTally(kind: $0) }
        var corrected = [Histogram](repeating: Histogram(), count: configuration.strategies.count)
        var arrivals = ArrivalCounts()
        var undecided: UInt64 = 0
        var harness: UInt64 = 0
        for result in results {
            undecided &+= result.undecided
            harness &+= result.harnessNanos
            arrivals.merge(result.arrivals)
            for index in tallies.indices {
                tallies[index].merge(result.tallies[index], violationLimit: configuration.violationLimit)
                corrected[index].merge(result.corrected[index])
            }
        }
        return RunResult(
            configuration: configuration,
            tallies: tallies,
            wallNanos: wall,
            undecidedJourneys: undecided,
            openLoop: OpenLoopResult(
                parameters: parameters,
                arrivals: arrivals,
                correctedJourneyNanos: corrected,
                harnessNanos: harness
            )
        )
    }
}

/// State the open-loop workers share: the start signal, arrivals handled, finished results.
private final class OpenLoopSharedState: Sendable {
    let configuration: RunConfiguration
    let parameters: OpenLoopParameters
    let generator: JourneyGenerator
    /// Threads waiting for the start.
    let ready = Atomic<Int>(0)
    /// The run's start on the monotonic clock; 0 until every thread is ready.
    let startNanos = Atomic<UInt64>(0)
    /// Arrivals started or dropped so far (for progress).
    let completed = Atomic<UInt64>(0)
    let results = Locked<[OpenLoopWorkerResult]>([])

    init(configuration: RunConfiguration, parameters: OpenLoopParameters) {
        self.configuration = configuration
        self.parameters = parameters
        self.generator = JourneyGenerator(configuration)
    }
}

private struct OpenLoopWorkerResult: Sendable {
    var tallies: [StrategyTally]
    var corrected: [Histogram]
    var arrivals: ArrivalCounts
    var undecided: UInt64
    var harnessNanos: UInt64
}

/// One arrival's journey, generated and judged by the oracle ahead of its start when there is time.
private struct PreparedArrival {
    var arrival: UInt64
    var journey: Journey
    var expectation: Expectation
}

/// One open-loop worker thread: follows its ``OpenLoopSchedule``, preparing the next journey while
/// idle and running it through every strategy when it is due.
private struct OpenLoopWorker {
    let shared: OpenLoopSharedState
    let thread: Int

    func work() -> OpenLoopWorkerResult {
        let configuration = shared.configuration
        let context = StrategyContext(mix: configuration.mix)
        let oracle = Oracle(mix: configuration.mix)
        var strategies = configuration.strategies.map { $0.make(context: context) }
        var result = OpenLoopWorkerResult(
            tallies: configuration.strategies.map { StrategyTally(kind: $0) },
            corrected: [Histogram](repeating: Histogram(), count: configuration.strategies.count),
            arrivals: ArrivalCounts(),
            undecided: 0,
            harnessNanos: 0
        )
        shared.ready.add(1, ordering: .releasing)
        var start = shared.startNanos.load(ordering: .acquiring)
        while start == 0 {
            sched_yield()
            start = shared.startNanos.load(ordering: .acquiring)
        }
        // Validated by the command; an impossible schedule runs nothing rather than trapping.
        guard
            var schedule = OpenLoopSchedule(
                ratePerSecond: shared.parameters.ratePerSecond,
                threads: configuration.threads,
                thread: thread,
                arrivals: configuration.journeys,
                maxLagNanos: shared.parameters.maxLagNanos
            )
        else { return result }
        var prepared: PreparedArrival?
        if case .due(let first) = schedule.state {
            prepared = prepare(first, oracle: oracle, harnessNanos: &result.harnessNanos)
        }
        while Runner.monotonicNanos() < start { Self.idle(untilNanos: start) }
        var unreported: UInt64 = 0
        var handled: UInt64 = 0
        arrivals: while true {
            let now = Runner.monotonicNanos()
            switch schedule.next(nowOffsetNanos: now &- start) {
            case .finished:
                break arrivals
            case .wait(let arrival, let until):
                if prepared?.arrival != arrival {
                    prepared = prepare(arrival, oracle: oracle, harnessNanos: &result.harnessNanos)
                } else {
                    Self.idle(untilNanos: start &+ until)
                }
            case .start(let arrival, let lag):
                let item: PreparedArrival
                if let ready = prepared, ready.arrival == arrival {
                    item = ready
                } else {
                    item = prepare(arrival, oracle: oracle, harnessNanos: &result.harnessNanos)
                }
                prepared = nil
                if item.expectation.endedPending { result.undecided &+= 1 }
                runArrival(item, lagNanos: lag, strategies: &strategies, oracle: oracle, result: &result)
            }
            // Report progress in batches: one shared atomic add per arrival would make the threads
            // contend for its cache line.
            let total = schedule.counts.started &+ schedule.counts.dropped
            unreported &+= total &- handled
            handled = total
            if unreported >= 256 {
                shared.completed.add(unreported, ordering: .relaxed)
                unreported = 0
            }
        }
        shared.completed.add(unreported, ordering: .relaxed)
        for index in strategies.indices { strategies[index].finish() }
        result.arrivals = schedule.counts
        return result
    }

    /// Generates arrival `arrival`'s journey and the oracle's expectation.
    func prepare(_ arrival: UInt64, oracle: Oracle, harnessNanos: inout UInt64) -> PreparedArrival {
        let before = Runner.monotonicNanos()
        let journey = shared.generator.journey(at: shared.configuration.firstIndex &+ arrival)
        let prepared = PreparedArrival(arrival: arrival, journey: journey, expectation: oracle.expect(journey))
        harnessNanos &+= Runner.monotonicNanos() &- before
        return prepared
    }

    /// Runs one started arrival through every strategy: times each, records the uncorrected and
    /// corrected latency, counts allocations and classifies the outcome.
    func runArrival(
        _ item: PreparedArrival,
        lagNanos: UInt64,
        strategies: inout [any Strategy],
        oracle: Oracle,
        result: inout OpenLoopWorkerResult
    ) {
        let limit = shared.configuration.violationLimit
        let arrivalStart = Runner.monotonicNanos()
        var serviceTotal: UInt64 = 0
        for index in strategies.indices {
            var observation = StrategyObservation()
            let allocatedBefore = AllocationCounter.threadAllocatedBytes()
            let before = Runner.monotonicNanos()
            strategies[index].run(item.journey, into: &observation, metrics: &result.tallies[index].operationNanos)
            let service = Runner.monotonicNanos() &- before
            result.tallies[index].allocatedBytes &+= AllocationCounter.threadAllocatedBytes() &- allocatedBefore
            serviceTotal &+= service
            result.tallies[index].journeyNanos.record(service)
            result.corrected[index].record(lagNanos &+ service)
            result.tallies[index].busyNanos &+= service
            result.tallies[index].journeys &+= 1
            let outcome = oracle.classify(
                observation,
                expectation: item.expectation,
                journey: item.journey,
                distinctions: strategies[index].distinctions
            )
            result.tallies[index].record(
                outcome,
                journey: item.journey,
                observation: observation,
                expected: item.expectation.outcome,
                violationLimit: limit
            )
        }
        let elapsed = Runner.monotonicNanos() &- arrivalStart
        result.harnessNanos &+= elapsed > serviceTotal ? elapsed &- serviceTotal : 0
    }

    /// Waits for `untilNanos` (monotonic): sleeps when it is far, yields when it is near. Returns
    /// early at times; the caller asks its schedule again.
    static func idle(untilNanos target: UInt64) {
        let now = Runner.monotonicNanos()
        guard target > now else { return }
        if target - now > OpenLoopRunner.spinWindowNanos {
            let wake = target - OpenLoopRunner.spinWindowNanos
            var time = timespec(tv_sec: Int(wake / 1_000_000_000), tv_nsec: Int(wake % 1_000_000_000))
            _ = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &time, nil)
        } else {
            // Spin without yielding: on a busy machine a yield hands the core to whatever else is
            // runnable for a whole time slice (milliseconds), which would be measured as start lag.
            while Runner.monotonicNanos() < target {}
        }
    }
}
