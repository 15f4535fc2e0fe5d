import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The worker threads of one run and what they share: thread start-up, the start signal, progress,
/// the watchdog, and the merge of the workers' tallies. Closed and open loop use it alike; only
/// their ``ArrivalSource`` differs.
///
/// Thread safety: ``run(progress:)`` is called once, from one thread; the workers touch only the
/// atomics and locks of ``SharedRunState``.
struct WorkerPool {
    let shared: SharedRunState

    init(configuration: RunConfiguration) {
        shared = SharedRunState(configuration: configuration)
    }

    func run(progress: (UInt64) -> Void) -> RunResult {
        let configuration = shared.configuration
        // Before any worker exists, so that the probe has a core to itself.
        let probeStart = configuration.disturbanceSource.hostSpeedNanos()
        let finished = DispatchSemaphore(value: 0)
        for number in 0..<configuration.threads {
            let thread = Thread { [shared] in
                var worker = Worker(shared: shared, thread: number)
                let result = worker.work()
                shared.results.withLock { $0.append(result) }
                finished.signal()
            }
            thread.stackSize = 1 << 22
            thread.start()
        }
        // Every thread is up before the clock starts, so thread start-up is neither wall time nor
        // (open loop) start lag.
        while shared.ready.load(ordering: .acquiring) < configuration.threads { sched_yield() }
        let start = Runner.monotonicNanos() + (configuration.openLoop == nil ? 0 : ArrivalSource.leadInNanos)
        shared.startNanos.store(max(start, 1), ordering: .releasing)
        var monitor = DisturbanceMonitor(source: configuration.disturbanceSource)
        var done = 0
        var hung: HungJourney?
        while done < configuration.threads {
            if finished.wait(timeout: .now() + .nanoseconds(Int(clamping: configuration.pollNanos))) == .success {
                done += 1
                continue
            }
            progress(shared.completed.load(ordering: .relaxed))
            monitor.sample()
            guard hung == nil, let stuck = shared.watchdog(limitNanos: configuration.journeyTimeoutNanos) else {
                continue
            }
            // A strategy is stuck: the others stop after their batch; the stuck thread is left
            // behind (it cannot be interrupted) and ends with the process.
            hung = stuck
            shared.stop.store(true, ordering: .relaxed)
            let others = configuration.threads - 1 - done
            for _ in 0..<max(0, others) where finished.wait(timeout: .now() + .seconds(30)) == .success { done += 1 }
            break
        }
        let end = Runner.monotonicNanos()
        progress(shared.completed.load(ordering: .relaxed))
        let wall = end > start ? end - start : 0
        var result = merge(wallNanos: wall, hung: hung)
        // After every worker finished; a hung one still spins, and would slow the probe down.
        let probeEnd = hung == nil ? configuration.disturbanceSource.hostSpeedNanos() : nil
        result.disturbance = monitor.finish(
            wallNanos: wall,
            threads: configuration.threads,
            cores: ResourceUsage.coreCount(),
            probeStartNanos: probeStart,
            probeEndNanos: probeEnd,
            thresholds: configuration.disturbanceThresholds
        )
        return result
    }

    /// The run's result from the finished workers' results (and the hung journey, if any).
    func merge(wallNanos: UInt64, hung: HungJourney?) -> RunResult {
        let configuration = shared.configuration
        let results = shared.results.withLock { $0 }
        var tallies = configuration.strategies.map { StrategyTally(kind: $0) }
        var corrected = [Histogram](repeating: Histogram(), count: configuration.strategies.count)
        var arrivals = ArrivalCounts()
        var undecided: UInt64 = 0
        for result in results {
            undecided &+= result.undecided
            arrivals.merge(result.arrivals)
            for index in tallies.indices {
                tallies[index].merge(result.tallies[index], violationLimit: configuration.violationLimit)
                corrected[index].merge(result.corrected[index])
            }
        }
        if let hung, let position = configuration.strategies.firstIndex(of: hung.strategy) {
            let journey = shared.generator.journey(at: hung.index)
            tallies[position].journeys &+= 1
            tallies[position].coverage.count(features: journey)
            tallies[position].record(
                .hung,
                journey: journey,
                observation: StrategyObservation(),
                expected: Oracle(mix: configuration.mix).expect(journey).outcome,
                violationLimit: configuration.violationLimit
            )
        }
        var ran = configuration
        if configuration.durationNanos != nil, configuration.openLoop == nil {
            // Every strategy ran every journey claimed (one range from the first).
            ran.journeys = tallies.first?.journeys ?? 0
        }
        var result = RunResult(
            configuration: ran,
            tallies: tallies,
            wallNanos: wallNanos,
            undecidedJourneys: undecided
        )
        if let parameters = configuration.openLoop {
            result.openLoop = OpenLoopResult(
                parameters: parameters,
                arrivals: arrivals,
                correctedJourneyNanos: corrected
            )
        }
        result.hung = hung
        return result
    }
}
