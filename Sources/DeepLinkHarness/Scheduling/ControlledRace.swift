import DeepLinkCore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One worker's controlled races: the logical threads of a racing journey (the worker's own
/// input and one or two partners' inputs) run as OS threads gated by one token, and at each of
/// the core's schedule points a ``ScheduleDecider`` picks which of them holds it next.
///
/// `Locked`'s acquire is modelled as a try-lock: a logical thread that finds the lock taken
/// (by a thread parked inside its critical section) is blocked until the holder releases it,
/// and the token moves on. When every unfinished thread is blocked (deadlock) or the race passes
/// ``stepBound`` points (livelock), the race records the ``ScheduleHang`` and lets its threads
/// run free (real locks, no token) so that the journey can finish if it is able to.
///
/// The token is a pthread mutex and condition variable (ThreadSanitizer sees both).
///
/// Thread safety: ``run(on:inputs:decider:faults:)`` is called by the owning worker only; the
/// schedule-point calls come from the race's logical threads and take the race's mutex.
final class ControlledRace: @unchecked Sendable {
    /// The most logical threads a race has: the worker and two partners.
    static let maximumThreads = 3
    /// Schedule points a race may pass before it counts as livelocked.
    static let stepBound = 20_000
    /// Steps kept for ``trace`` (a race passes far fewer; the count goes on past it).
    static let traceCapacity = 4_096

    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let changed: UnsafeMutablePointer<pthread_cond_t>

    // Everything below is guarded by `mutex`.
    private var partners = 0
    private var generation = 0
    private var stopping = false
    private var resolver: LinkResolver?
    private var inputs: [RaceInput] = []
    private var threadCount = 0
    private var finished = 0
    /// Per logical thread: runnable (0), blocked on `blockedOn` (1), finished (2).
    private var status = [UInt8](repeating: 0, count: maximumThreads)
    private var blockedOn = [UnsafeMutableRawPointer?](repeating: nil, count: maximumThreads)
    /// The point each logical thread is parked before (`nil`: not started).
    private var parkedAt = [SchedulePoint?](repeating: nil, count: maximumThreads)
    private var token = -1
    private var free = false
    private var decider = ScheduleDecider(mode: .os, seed: 0, threads: 1)
    private var faults: UInt8 = 0
    private(set) var steps = 0
    private(set) var trace: [ScheduleStep] = []
    private(set) var hang: ScheduleHang?
    /// Schedule points reached and pairs interleaved (a thread parked before one point let
    /// another pass its point first).
    private(set) var coverage = ScheduleCoverage()

    init() {
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        changed.initialize(to: pthread_cond_t())
        pthread_cond_init(changed, nil)
        trace.reserveCapacity(Self.traceCapacity)
        inputs.reserveCapacity(Self.maximumThreads)
        _ = ControlledScheduling.shared
    }

    deinit {
        pthread_cond_destroy(changed)
        changed.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// The decider of the last race (exhaustive: its choices and their branching).
    var lastDecider: ScheduleDecider {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return decider
    }

    /// Delivers `inputs[0]` on this thread and each other input on a partner thread, interleaved
    /// by `decider` at the core's schedule points (all at once, unscheduled, when `decider` is
    /// `os`). Returns when every input was delivered.
    ///
    /// - Precondition: `inputs` has 1 to ``maximumThreads`` inputs.
    func run(on resolver: LinkResolver, inputs: [RaceInput], decider: ScheduleDecider, faults: UInt8) {
        precondition((1...Self.maximumThreads).contains(inputs.count), "a race has 1 to 3 inputs")
        // The owner's switches during the race (token hand-offs) are the run's own.
        var switches = RaceSwitches.ofCallingThread()
        defer { RaceSwitches.book(since: &switches) }
        while partners < inputs.count - 1 { startPartner(partners + 1) }
        // Before any input runs: only the race's resolver pays for its points, only during it.
        resolver.process.passSchedulePoints(true)
        pthread_mutex_lock(mutex)
        self.resolver = resolver
        self.inputs.removeAll(keepingCapacity: true)
        self.inputs.append(contentsOf: inputs)
        threadCount = inputs.count
        finished = 0
        for thread in 0..<Self.maximumThreads {
            status[thread] = 0
            blockedOn[thread] = nil
            parkedAt[thread] = nil
        }
        self.decider = decider
        self.faults = faults
        free = !decider.mode.isControlled
        steps = 0
        trace.removeAll(keepingCapacity: true)
        hang = nil
        coverage = ScheduleCoverage()
        token = free ? -1 : self.decider.choose(current: -1, runnable: runnableMask, step: 0)
        generation += 1
        pthread_cond_broadcast(changed)
        let input = self.inputs[0]
        waitForTurn(0)
        pthread_mutex_unlock(mutex)

        ControlledScheduling.shared.enter(self, as: 0)
        input.deliver(to: resolver)
        finish(0)
        ControlledScheduling.shared.enter(nil, as: 0)

        pthread_mutex_lock(mutex)
        while finished < threadCount { pthread_cond_wait(changed, mutex) }
        self.resolver = nil
        pthread_mutex_unlock(mutex)
        // Every input delivered: no thread is inside the resolver any more.
        resolver.process.passSchedulePoints(false)
    }

    /// Ends the partner threads.
    func stop() {
        pthread_mutex_lock(mutex)
        stopping = true
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(mutex)
    }

    private func startPartner(_ thread: Int) {
        partners += 1
        // A trap on a partner thread is the owning worker's journey.
        let beacon = UInt(bitPattern: TrapHandler.currentBeacon())
        // The generation before the race that starts it: the partner must not miss that race.
        let seen = generation
        let partner = Thread { [self] in
            TrapHandler.adopt(UnsafeMutableRawPointer(bitPattern: beacon))
            partnerLoop(thread, seen: seen)
        }
        partner.stackSize = 1 << 20
        partner.start()
    }

    private func partnerLoop(_ thread: Int, seen: Int) {
        ControlledScheduling.shared.enter(self, as: thread)
        pthread_mutex_lock(mutex)
        var seen = seen
        // A partner thread only ever races: all its switches are the run's own.
        var switches = RaceSwitches.ofCallingThread()
        while true {
            while generation == seen, !stopping { pthread_cond_wait(changed, mutex) }
            if stopping { break }
            seen = generation
            guard thread < threadCount, let resolver else { continue }
            let input = inputs[thread]
            waitForTurn(thread)
            pthread_mutex_unlock(mutex)
            input.deliver(to: resolver)
            finish(thread)
            RaceSwitches.book(since: &switches)
            pthread_mutex_lock(mutex)
        }
        pthread_mutex_unlock(mutex)
    }

    // MARK: - Schedule points (called with `mutex` not held)

    func plants(_ fault: ConcurrencyFault) -> Bool { faults & (1 << fault.rawValue) != 0 }

    func reach(_ point: SchedulePoint, thread: Int) {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        guard !free else { return }
        steps += 1
        if trace.count < Self.traceCapacity { trace.append(ScheduleStep(thread: UInt8(thread), point: point)) }
        coverage.reach(point)
        guard steps <= Self.stepBound else {
            hang = .livelock
            runFree()
            return
        }
        parkedAt[thread] = point
        let next = decider.choose(current: thread, runnable: runnableMask, step: steps)
        guard next != thread else { return }
        if let other = parkedAt[next] { coverage.interleave(parked: point, passed: other) }
        token = next
        pthread_cond_broadcast(changed)
        waitForTurn(thread)
    }

    func lock(_ lock: UnsafeMutablePointer<pthread_mutex_t>, thread: Int) {
        reach(.lockAcquire, thread: thread)
        while pthread_mutex_trylock(lock) != 0 {
            pthread_mutex_lock(mutex)
            if free {
                pthread_mutex_unlock(mutex)
                pthread_mutex_lock(lock)
                return
            }
            // Held by a parked logical thread: wait for its release.
            status[thread] = 1
            blockedOn[thread] = UnsafeMutableRawPointer(lock)
            let runnable = runnableMask
            guard runnable != 0 else {
                hang = .deadlock
                runFree()
                pthread_mutex_unlock(mutex)
                pthread_mutex_lock(lock)
                return
            }
            token = decider.choose(current: thread, runnable: runnable, step: steps)
            pthread_cond_broadcast(changed)
            waitForTurn(thread)
            pthread_mutex_unlock(mutex)
        }
    }

    func unlock(_ lock: UnsafeMutablePointer<pthread_mutex_t>, thread: Int) {
        pthread_mutex_unlock(lock)
        pthread_mutex_lock(mutex)
        for other in 0..<threadCount where status[other] == 1 && blockedOn[other] == UnsafeMutableRawPointer(lock) {
            status[other] = 0
            blockedOn[other] = nil
        }
        pthread_mutex_unlock(mutex)
        reach(.lockRelease, thread: thread)
    }

    // MARK: - The token (called with `mutex` held)

    private var runnableMask: UInt32 {
        var mask: UInt32 = 0
        for thread in 0..<threadCount where status[thread] == 0 { mask |= 1 << UInt32(thread) }
        return mask
    }

    private func waitForTurn(_ thread: Int) {
        while !free, token != thread { pthread_cond_wait(changed, mutex) }
    }

    private func runFree() {
        free = true
        token = -1
        pthread_cond_broadcast(changed)
    }

    private func finish(_ thread: Int) {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        status[thread] = 2
        finished += 1
        defer { pthread_cond_broadcast(changed) }
        guard !free else { return }
        let runnable = runnableMask
        if runnable != 0 {
            token = decider.choose(current: thread, runnable: runnable, step: steps)
        } else if finished < threadCount {
            hang = .deadlock
            runFree()
        } else {
            token = -1
        }
    }
}
