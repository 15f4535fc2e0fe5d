import DeepLinkCore
import Synchronization

/// State the workers share: the start signal, the next chunk to claim (closed loop), journeys
/// completed, finished results, the stop flag and one beacon per worker.
final class SharedRunState: Sendable {
    let configuration: RunConfiguration
    let generator: JourneyGenerator
    /// Threads waiting for the start.
    let ready = Atomic<Int>(0)
    /// The run's start on the monotonic clock; 0 until every thread is ready.
    let startNanos = Atomic<UInt64>(0)
    let nextChunk = Atomic<UInt64>(0)
    /// Journeys (open loop: arrivals started or dropped) so far, for progress.
    let completed = Atomic<UInt64>(0)
    let results = Locked<[WorkerResult]>([])
    /// Set by the watchdog: workers stop taking batches.
    let stop = Atomic<Bool>(false)
    /// One per worker thread, by thread number.
    let beacons: [WorkerBeacon]
    /// One per worker thread: where its paired worker asks it to partner a race.
    let raceDesks: [RaceDesk]

    init(configuration: RunConfiguration) {
        self.configuration = configuration
        self.generator = JourneyGenerator(configuration)
        self.beacons = (0..<configuration.threads).map { _ in WorkerBeacon() }
        self.raceDesks = (0..<configuration.threads).map { _ in RaceDesk() }
    }

    /// The first journey that has run longer than `limitNanos`, if any.
    func watchdog(limitNanos: UInt64) -> HungJourney? {
        // The workers' clock (``Worker``): beacons hold its readings.
        let stopwatch = OperationClock.calibration
        let now = stopwatch.now()
        for beacon in beacons {
            let started = beacon.startReading.load(ordering: .acquiring)
            guard started != 0 else { continue }
            let running = stopwatch.nanos(from: started, to: now)
            guard running > limitNanos else { continue }
            let strategy = configuration.strategies[beacon.strategy.load(ordering: .relaxed)]
            return HungJourney(
                strategy: strategy,
                index: beacon.journey.load(ordering: .relaxed),
                runningNanos: running
            )
        }
        return nil
    }
}
