#if canImport(Glibc)
import Glibc
#endif

/// Where a worker's journeys come from: the one difference between closed and open loop.
///
/// - Closed loop: as fast as possible; the worker claims the next chunk of ``Runner/chunkSize``
///   indices from a shared counter.
/// - Open loop (`run --rate`): the worker follows its ``OpenLoopSchedule``; each batch is one due
///   arrival (journey `firstIndex + k` for arrival `k`), prepared while the worker idles before it
///   and carrying its start lag.
///
/// Thread safety: a value type owned by one worker thread.
enum ArrivalSource {
    case closed
    case open(OpenLoopSchedule, prepared: PreparedArrival?)

    /// Closer than this to an arrival's intended start, a thread spins instead of sleeping:
    /// sleeping that short overshoots by the kernel's timer slack (~50 µs), which would show up
    /// as start lag the system under test did not cause.
    static let spinWindowNanos: UInt64 = 150_000

    /// The open-loop schedule starts this long after every thread is up, so each has prepared its
    /// first journey and is waiting when arrival 0 is due (thread wake-up is not start lag).
    static let leadInNanos: UInt64 = 2_000_000

    /// The source of worker `thread`; nil when the open-loop schedule is impossible (validated by
    /// the command: such a run runs nothing rather than trapping).
    init?(configuration: RunConfiguration, thread: Int) {
        guard let parameters = configuration.openLoop else {
            self = .closed
            return
        }
        guard
            let schedule = OpenLoopSchedule(
                ratePerSecond: parameters.ratePerSecond,
                threads: configuration.threads,
                thread: thread,
                arrivals: configuration.journeys,
                maxLagNanos: parameters.maxLagNanos
            )
        else { return nil }
        self = .open(schedule, prepared: nil)
    }

    /// What became of this worker's arrivals (open loop; zero in closed loop).
    var arrivals: ArrivalCounts {
        if case .open(let schedule, _) = self { return schedule.counts }
        return ArrivalCounts()
    }

    /// Before the start: an open-loop worker prepares its first arrival, so it is ready when due.
    mutating func prepareFirst(shared: SharedRunState, oracle: Oracle, allocations: ThreadAllocationCounter) {
        guard case .open(let schedule, _) = self, case .due(let first) = schedule.state else { return }
        self = .open(
            schedule,
            prepared: PreparedArrival(first, shared: shared, oracle: oracle, allocations: allocations)
        )
    }

    /// Fills `batch` with the next journeys to run (replacing what it held); returns how many
    /// arrivals that took (open loop: started and dropped ones, for progress), or nil when this
    /// worker has none left or the run is stopping. `start` is the run's start on the monotonic
    /// clock. Closed loop calls `betweenJourneys` before preparing each journey (the worker serves
    /// a race its paired worker asked for there: a batch takes ~100 µs to prepare, and an ask not
    /// answered meanwhile waited for all of it) and leaves the time and bytes it adds to its
    /// argument out of the batch's preparation cost.
    mutating func next(
        into batch: inout JourneyBatch,
        shared: SharedRunState,
        oracle: Oracle,
        allocations: ThreadAllocationCounter,
        start: UInt64,
        betweenJourneys: (inout (nanos: UInt64, bytes: UInt64)) -> Void
    ) -> UInt64? {
        batch.removeAll()
        guard !shared.stop.load(ordering: .relaxed) else { return nil }
        let configuration = shared.configuration
        switch self {
        case .closed:
            // A time-based run stops claiming at its deadline (a claimed chunk still runs whole, so
            // the journeys run are one range from the first), but not before a journey that
            // trapped in an earlier attempt, so that it is inside the range the report covers.
            if let duration = configuration.durationNanos, Runner.monotonicNanos() &- start >= duration,
                shared.nextChunk.load(ordering: .relaxed) &* UInt64(Runner.chunkSize)
                    >= configuration.trappedJourneys.map({ $0.journey &- configuration.firstIndex &+ 1 }).max() ?? 0
            {
                return nil
            }
            let chunk = UInt64(Runner.chunkSize)
            let begin = shared.nextChunk.add(1, ordering: .relaxed).oldValue &* chunk
            guard begin < configuration.journeys else { return nil }
            let end = min(begin + chunk, configuration.journeys)
            let before = (reading: OperationClock.now(), bytes: allocations.bytes)
            var served: (nanos: UInt64, bytes: UInt64) = (0, 0)
            for offset in begin..<end {
                betweenJourneys(&served)
                batch.append(shared.generator.journey(at: configuration.firstIndex &+ offset), oracle: oracle)
            }
            let nanos = OperationClock.nanos(from: before.reading, to: OperationClock.now())
            let bytes = allocations.bytes &- before.bytes
            batch.preparationNanos &+= nanos > served.nanos ? nanos &- served.nanos : 0
            batch.preparationBytes &+= bytes > served.bytes ? bytes &- served.bytes : 0
            return end - begin
        case .open(var schedule, var prepared):
            defer { self = .open(schedule, prepared: prepared) }
            let handledBefore = schedule.counts.started &+ schedule.counts.dropped
            while !shared.stop.load(ordering: .relaxed) {
                let now = Runner.monotonicNanos()
                switch schedule.next(nowOffsetNanos: now &- start) {
                case .finished:
                    return nil
                case .wait(let arrival, let until):
                    if prepared?.arrival != arrival {
                        prepared = PreparedArrival(arrival, shared: shared, oracle: oracle, allocations: allocations)
                    } else {
                        Self.idle(untilNanos: start &+ until)
                    }
                case .start(let arrival, let lag):
                    let item =
                        prepared.flatMap { $0.arrival == arrival ? $0 : nil }
                        ?? PreparedArrival(arrival, shared: shared, oracle: oracle, allocations: allocations)
                    prepared = nil
                    batch.append(item, lagNanos: lag)
                    return (schedule.counts.started &+ schedule.counts.dropped) &- handledBefore
                }
            }
            return nil
        }
    }

    /// Waits for `untilNanos` (monotonic): sleeps when it is far, spins when it is near. Returns
    /// early at times; the caller asks its schedule again.
    static func idle(untilNanos target: UInt64) {
        let now = Runner.monotonicNanos()
        guard target > now else { return }
        if target - now > spinWindowNanos {
            let wake = target - spinWindowNanos
            var time = timespec(tv_sec: Int(wake / 1_000_000_000), tv_nsec: Int(wake % 1_000_000_000))
            _ = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &time, nil)
        } else {
            // Spin without yielding: on a busy machine a yield hands the core to whatever else is
            // runnable for a whole time slice (milliseconds), which would be measured as start lag.
            while Runner.monotonicNanos() < target {}
        }
    }
}
