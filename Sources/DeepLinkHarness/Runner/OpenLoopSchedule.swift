/// The arrival schedule of one worker thread in an open-loop run (`deeplink-bench run --rate R`):
/// when each of its arrivals is due, and whether it starts, starts late, or is dropped.
///
/// Arrivals: the run has `arrivals` of them, arrival `k` (global, from 0) intended at
/// `k × 10⁹ / R` ns after the run starts, so the whole run offers exactly `R` per second. Thread
/// `t` of `T` owns arrivals `t, t + T, t + 2T, …` (its share, `R / T` per second, phases
/// interleaved) and runs journey index `firstIndex + k` for arrival `k`, so the journeys of an
/// open-loop run are the same as a closed-loop run's.
///
/// No coordinated omission: the schedule does not wait for the system. An arrival's *start lag* is
/// how long after its intended start it actually started; the harness measures journey latency
/// from the intended start (lag + service time), so a stall delays and penalises every arrival
/// that was due during it, as real users would be.
///
/// Late and dropped: an arrival that starts more than ``lateToleranceNanos`` after its intended
/// start is *late* (counted, still run). One whose lag already exceeds `maxLagNanos` when the
/// thread gets to it is *dropped*: counted, never run. That bounds the backlog a thread may carry to
/// `maxLagNanos` of arrivals (a queue of about `maxLag × R / T` entries), which is what a real
/// service with a bounded queue or a request deadline does, and it keeps an overloaded run from
/// running on long after its schedule ends.
///
/// State machine: ``State`` is the next arrival due (or finished); ``next(nowOffsetNanos:)`` is the
/// one event (the thread is free at time `now`) and returns the ``Action`` to take. Times are
/// offsets in nanoseconds from the run's start on a monotonic clock, so the schedule itself never
/// reads a clock and tests drive it with any times.
///
/// Thread safety: a value type owned by one worker thread.
package struct OpenLoopSchedule: Sendable {
    /// A start later than this after the intended start counts as late (100 µs: well above timer
    /// and scheduler jitter on an idle machine, well below a 1 ms latency objective).
    package static let lateToleranceNanos: UInt64 = 100_000

    /// What a thread's schedule is waiting for.
    package enum State: Sendable, Equatable {
        /// Arrival `arrival` (global number) is the next one this thread owns.
        case due(arrival: UInt64)
        /// Every arrival of this thread has started or been dropped.
        case finished
    }

    /// What the thread does next.
    package enum Action: Sendable, Equatable {
        /// Nothing is due yet: arrival `arrival` is due at `untilOffsetNanos` (idle until then; a
        /// good time to prepare that arrival's journey).
        case wait(arrival: UInt64, untilOffsetNanos: UInt64)
        /// Start arrival `arrival` now, `lagNanos` after its intended start.
        case start(arrival: UInt64, lagNanos: UInt64)
        /// No arrivals left for this thread.
        case finished
    }

    /// Arrivals per second, all threads together.
    package let ratePerSecond: Double
    /// The worker threads sharing the arrivals.
    package let threads: Int
    /// This thread, `0..<threads`.
    package let thread: Int
    /// Arrivals in the whole run, all threads.
    package let arrivals: UInt64
    /// An arrival whose lag exceeds this when its thread gets to it is dropped.
    package let maxLagNanos: UInt64

    package private(set) var state: State
    /// What happened to this thread's arrivals so far.
    package private(set) var counts = ArrivalCounts()

    /// Nanoseconds between consecutive arrivals of the whole run.
    private let nanosPerArrival: Double

    /// The schedule of thread `thread` of `threads`, or `nil` when the rate is not a positive finite
    /// number of at most 10⁹ per second, or `thread` is not in `0..<threads`.
    package init?(ratePerSecond: Double, threads: Int, thread: Int, arrivals: UInt64, maxLagNanos: UInt64) {
        guard ratePerSecond.isFinite, ratePerSecond > 0, ratePerSecond <= 1e9, threads >= 1, thread >= 0,
            thread < threads
        else { return nil }
        self.ratePerSecond = ratePerSecond
        self.threads = threads
        self.thread = thread
        self.arrivals = arrivals
        self.maxLagNanos = maxLagNanos
        self.nanosPerArrival = 1e9 / ratePerSecond
        self.state = UInt64(thread) < arrivals ? .due(arrival: UInt64(thread)) : .finished
    }

    /// When arrival `arrival` is intended to start, in ns from the run's start (rounded to the
    /// nanosecond; computed from `arrival` alone, so rounding never accumulates).
    package func intendedOffsetNanos(ofArrival arrival: UInt64) -> UInt64 {
        let offset = (Double(arrival) * nanosPerArrival).rounded()
        // Beyond ~584 years: unreachable with the run's bounds, but never a trap.
        return offset < 1.8e19 ? UInt64(offset) : UInt64.max
    }

    /// The thread is free at `nowOffsetNanos`: drops every owned arrival that is already more than
    /// `maxLagNanos` overdue, then says whether to wait for, or start, the next one.
    ///
    /// - Complexity: O(1) plus O(1) per arrival dropped.
    package mutating func next(nowOffsetNanos now: UInt64) -> Action {
        while true {
            switch state {
            case .finished:
                return .finished
            case .due(let arrival):
                let intended = intendedOffsetNanos(ofArrival: arrival)
                if now < intended { return .wait(arrival: arrival, untilOffsetNanos: intended) }
                let lag = now - intended
                advance(past: arrival)
                if lag > maxLagNanos {
                    counts.dropped &+= 1
                    continue
                }
                counts.started &+= 1
                if lag > Self.lateToleranceNanos { counts.lateStarts &+= 1 }
                counts.maxStartLagNanos = max(counts.maxStartLagNanos, lag)
                return .start(arrival: arrival, lagNanos: lag)
            }
        }
    }

    private mutating func advance(past arrival: UInt64) {
        let (following, overflow) = arrival.addingReportingOverflow(UInt64(threads))
        state = !overflow && following < arrivals ? .due(arrival: following) : .finished
        #if DEBUG
        _checkInvariants()
        #endif
    }

    #if DEBUG
    /// A due arrival is this thread's and in range; late starts are a subset of starts.
    func _checkInvariants() {
        switch state {
        case .due(let arrival):
            precondition(arrival < arrivals && arrival % UInt64(threads) == UInt64(thread), "foreign arrival due")
        case .finished:
            break
        }
        precondition(counts.lateStarts <= counts.started, "more late starts than starts")
    }
    #endif
}
