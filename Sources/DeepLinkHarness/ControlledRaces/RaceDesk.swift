import DeepLinkCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A worker's in-tray for controlled races: its paired worker asks here for a race partner, and
/// the worker, between journeys, takes the race and runs its partner's logical thread itself.
///
/// A controlled race runs one logical thread at a time, so a partner thread of its own per worker
/// buys no parallelism; on a machine with as many cores as workers it only doubles the runnable
/// threads, and every token hand-off became a futex wake-up and a context switch or two (measured:
/// about 6.5 per racing journey). Paired workers are each other's partner: both already hold a
/// core, and a hand-off between them is a spin of a few hundred nanoseconds.
///
/// The hand-shake, on ``state``: the asker moves it idle → asked; the worker, between journeys,
/// asked → taken; the asker sets the race up and posts it (taken → posted); the worker runs its
/// logical thread and moves it back to idle. An asker not answered within ``patienceNanos`` (the
/// worker is preparing a batch, idle in an open loop, or preempted) withdraws (asked → idle) and
/// uses a partner thread of its own; a worker done with its journeys closes the tray, and asks
/// then fail at once. Two workers asking each other at once: the higher-numbered one
/// (``RacePeering/servesWhileAsking``) serves the other's race while it waits for its own answer.
///
/// Thread safety: an atomic state and a `Locked` slot; the asker and the worker follow the
/// hand-shake above.
package final class RaceDesk: Sendable {
    /// How long an asker waits for the worker to take its race: the worker answers between
    /// journeys, within microseconds, unless it is preparing a batch, in a race of its own on a
    /// partner thread, or preempted (a race on a partner thread of the asker's own is slow too,
    /// and keeps the worker's next ask waiting in turn).
    static let patienceNanos: UInt64 = 2_000_000
    /// How long an asker spins before it yields between checks.
    static let yieldAfterNanos: UInt64 = 20_000

    private enum State {
        static let closed = -1
        static let idle = 0
        static let asked = 1
        static let taken = 2
        static let posted = 3
    }

    /// Races partnered through desks so far, process-wide (tests see that pairing happened).
    package static var servedRaces: UInt64 { served.load(ordering: .relaxed) }
    private static let served = Atomic<UInt64>(0)

    private let state = Atomic<Int>(State.idle)
    private let race = Locked<(race: ControlledRace, thread: Int)?>(nil)

    // MARK: - The asker

    /// Asks for a partner; true when the worker took the race (then ``post(_:thread:)`` it at
    /// once), false when it left or did not answer in time. `meanwhile` runs while waiting; when
    /// it returns true (it served the worker's own race) the wait starts over.
    func ask(meanwhile: () -> Bool) -> Bool {
        var wait = Wait()
        // The worker may still be leaving the previous race (posted → idle comes last).
        while !state.compareExchange(expected: State.idle, desired: State.asked, ordering: .acquiringAndReleasing)
            .exchanged
        {
            if state.load(ordering: .relaxed) == State.closed || wait.expired() { return false }
            if meanwhile() { wait = Wait() }
        }
        while state.load(ordering: .acquiring) != State.taken {
            if meanwhile() { wait = Wait() }
            guard wait.expired() else { continue }
            // Withdraw; failing that, the worker took it meanwhile.
            if state.compareExchange(expected: State.asked, desired: State.idle, ordering: .acquiringAndReleasing)
                .exchanged
            {
                return false
            }
        }
        return true
    }

    /// An asker's wait: it spins for ``yieldAfterNanos``, then yields the core between checks (the
    /// worker it waits for may be waiting for one), and gives up after ``patienceNanos``.
    private struct Wait {
        var started: UInt64 = 0

        mutating func expired() -> Bool {
            let now = Runner.monotonicNanos()
            if started == 0 { started = now }
            let waited = now &- started
            if waited > RaceDesk.yieldAfterNanos { sched_yield() }
            return waited >= RaceDesk.patienceNanos
        }
    }

    /// Hands the set-up race to the worker that took it, as logical thread `thread`.
    func post(_ controlled: ControlledRace, thread: Int) {
        race.withLock { $0 = (controlled, thread) }
        state.store(State.posted, ordering: .releasing)
    }

    // MARK: - The worker

    /// Between journeys: runs the asked race's partner thread, if one was asked for. Returns
    /// whether it served (a single relaxed load when not asked).
    @inline(__always)
    func serveIfAsked() -> Bool {
        guard isAsked else { return false }
        return serve()
    }

    /// Whether a race is asked for (a relaxed load: a hint; ``serveIfAsked()`` decides).
    @inline(__always)
    var isAsked: Bool { state.load(ordering: .relaxed) == State.asked }

    private func serve() -> Bool {
        guard
            state.compareExchange(expected: State.asked, desired: State.taken, ordering: .acquiringAndReleasing)
                .exchanged
        else { return false }
        // The asker posts right after it sees `taken` (it sets the race up first): yield only if it
        // was preempted.
        if !BoundedSpin.spin(forNanos: ControlledRace.handOffStallNanos, while: { !isPosted }) {
            while !isPosted { sched_yield() }
        }
        if let work = race.withLock({ $0 }) {
            work.race.serve(work.thread)
            Self.served.add(1, ordering: .relaxed)
        }
        race.withLock { $0 = nil }
        state.store(State.idle, ordering: .releasing)
        return true
    }

    private var isPosted: Bool { state.load(ordering: .acquiring) == State.posted }

    /// The worker is done: serves a race asked for meanwhile, then refuses every later ask.
    func close() {
        while !state.compareExchange(expected: State.idle, desired: State.closed, ordering: .acquiringAndReleasing)
            .exchanged
        {
            _ = serveIfAsked()
        }
    }
}
