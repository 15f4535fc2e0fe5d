import DeepLinkCore
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One worker's races: the logical threads of a racing journey (the worker's own input and one or
/// two partners' inputs), gated by one token; at each of the target's schedule points a
/// ``ScheduleDecider`` picks which of them holds it next.
///
/// Under a controlled schedule only one logical thread runs at a time, so they run as fibers on
/// the worker's own thread (``RaceFibers``): passing the token is a stack switch, nothing spins and
/// nothing waits for another core or for a time-out, so a race's cost does not depend on the
/// machine's load and nothing in it depends on timing. `Locked`'s acquire is modelled as a
/// try-lock: a logical thread that finds the lock taken (by a thread parked inside its critical
/// section) is blocked until the holder releases it, and the token moves on. A race that passes
/// ``stepBound`` points (livelock) is recorded as a ``ScheduleHang`` and its threads then take
/// turns at every point, in order, so that one spinning for another lets it run; a deadlock (every
/// unfinished thread blocked), or a livelock past ``abandonBound``, gives the race up (its fibers
/// stay suspended; the journey is `hung`).
///
/// Where fibers are not available (``RaceFibers/available``: sanitizer builds, other CPUs), and
/// under `os`, the logical threads are OS threads. The token is then a pthread mutex and condition
/// variable (ThreadSanitizer sees both): when the worker is paired (``RacePeering``), the paired
/// worker runs the partner's logical thread between its own journeys (``RaceDesk``), and otherwise
/// a partner thread of the race's own does. A thread waiting for its turn spins on a change counter
/// (``BoundedSpin``, with the mutex released) while the token's holder passes schedule points, and
/// parks on the condition once they stop; ``spinCredit`` turns spinning off while it does not pay
/// (a loaded machine). After a hang the threads run free (real locks, no token) so that the journey
/// can finish if it is able to. How the threads wait never changes whose turn it is, so a seed's
/// interleaving is the same on fibers and on threads.
///
/// Thread safety: ``run(on:_:_:_:schedule:seed:prefix:faults:)`` is called by the owning worker
/// only; the schedule-point calls come from the race's logical threads and take the race's mutex.
final class ControlledRace: @unchecked Sendable {
    /// The most logical threads a race has: the worker and two partners.
    static let maximumThreads = 3
    /// Schedule points a race may pass before it counts as livelocked.
    static let stepBound = 20_000
    /// Fibers: points past which a livelocked race (taking turns round robin) is given up.
    static let abandonBound = 4 * stepBound
    /// Steps kept for ``trace`` (a race passes far fewer; the count goes on past it).
    static let traceCapacity = 4_096

    /// When each thread of the race has a core (a race on the paired worker, or a run with cores
    /// to spare), a logical thread waiting for the token spins while the token's holder passes
    /// schedule points, and parks once none came for this long (the holder was preempted, or
    /// blocked: spinning on would only keep it off a core).
    static let handOffStallNanos: UInt64 = 20_000
    static let maximumSpinCredit = 16
    static let spinMissCost = 4
    static let spinProbeInterval = 64
    /// The spin otherwise (and of a wait for the mutex): one clock read. A thread spinning for its
    /// turn would keep the thread whose turn it is, or another worker, off the core.
    static let minimumSpinNanos: UInt64 = 1_000

    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let changed: UnsafeMutablePointer<pthread_cond_t>
    /// Where partner threads park between races: signalled only for a race that needs them (not
    /// for one the paired worker partners) and at the end.
    private let nextRace: UnsafeMutablePointer<pthread_cond_t>
    /// Bumped under `mutex` with every broadcast of `changed`; read without the mutex by a
    /// spinning waiter (a hint only: the waiter rechecks its condition under the mutex).
    private let changes = Atomic<UInt64>(0)
    /// Bumped at every schedule point a controlled thread passes: a spinning waiter's sign that
    /// the token's holder is running.
    private let progress = Atomic<UInt64>(0)
    private let peering: RacePeering?
    /// The owning worker's beacon (``TrapHandler``), as bits.
    private let ownerBeacon: UInt
    /// Whether the run leaves a core to spare for the race's partner threads.
    private let spareCore: Bool

    // Everything below is guarded by `mutex` (on fibers, by running on the owner's thread alone),
    // so the hot ones need no dynamic exclusivity check on top: `@exclusivity(unchecked)`.
    private var partners = 0
    /// The logical thread the paired worker runs in this race (-1: none; partner threads skip it).
    private var servedByPeer = -1
    /// Whether this race's threads spin for their turn while its holder progresses
    /// (``handOffStallNanos``), or for ``minimumSpinNanos`` only.
    private var spinsForTurn = false
    /// Whether spinning pays on this machine now: spins that caught their turn add a credit, spins
    /// that ran out (and asks the peer did not answer) take ``spinMissCost``; at zero the races'
    /// threads park at once, as two threads that must take turns on one core do best, and every
    /// ``spinProbeInterval`` races one tries spinning again.
    private let spinCredit = Atomic<Int>(ControlledRace.maximumSpinCredit)
    /// Races run without spinning since the credit ran out (owner only).
    private var racesWithoutSpinning = 0
    private var generation = 0
    private var stopping = false
    @exclusivity(unchecked) private var target: (any RaceTarget)?
    @exclusivity(unchecked) private var inputs: [RaceInput] = []
    @exclusivity(unchecked) private var threadCount = 0
    @exclusivity(unchecked) private var finished = 0
    /// Per logical thread: runnable (0), blocked on `blockedOn` (1), finished (2).
    @exclusivity(unchecked) private var status = [UInt8](repeating: 0, count: maximumThreads)
    @exclusivity(unchecked) private var blockedOn = [UnsafeMutableRawPointer?](repeating: nil, count: maximumThreads)
    /// The OS thread that delivered each logical thread's input (recorded as it finishes).
    @exclusivity(unchecked) private var deliveredOn = [pthread_t](repeating: 0, count: maximumThreads)
    /// The point each logical thread is parked before (`nil`: not started).
    @exclusivity(unchecked) private var parkedAt = [SchedulePoint?](repeating: nil, count: maximumThreads)
    @exclusivity(unchecked) private var token = -1
    @exclusivity(unchecked) private var free = false
    @exclusivity(unchecked) private var decider = ScheduleDecider(mode: .os, seed: 0, threads: 1)
    @exclusivity(unchecked) private var faults: UInt8 = 0
    /// This race runs its logical threads as fibers on the owner's thread (``RaceFibers``).
    @exclusivity(unchecked) private var onFibers = false
    /// Fibers: past ``stepBound`` the threads take turns point by point (round robin), so that a
    /// thread spinning for another lets it run, deterministically.
    @exclusivity(unchecked) private var roundRobin = false
    /// Fibers: the race was given up (a deadlock, or a livelock past ``abandonBound``): its fibers
    /// stay suspended where they are, and the journey is judged `hung`.
    @exclusivity(unchecked) private var abandoned = false
    @exclusivity(unchecked) private var fibers: RaceFibers?
    @exclusivity(unchecked) private(set) var steps = 0
    @exclusivity(unchecked) private(set) var trace: [ScheduleStep] = []
    @exclusivity(unchecked) private(set) var hang: ScheduleHang?
    /// Schedule points reached and pairs interleaved (a thread parked before one point let
    /// another pass its point first).
    @exclusivity(unchecked) private(set) var coverage = ScheduleCoverage()

    /// With `peering`, a two-input race asks the paired worker to run its partner's logical thread
    /// (``RaceDesk``), and starts a partner thread only when the peer does not answer. With
    /// `spareCore` (fewer workers than cores), partner threads spin between races
    /// (``RacePartner/spinNanos``) and for their turn; without, they park at once.
    init(peering: RacePeering? = nil, spareCore: Bool = false) {
        self.peering = peering
        self.spareCore = spareCore
        // A trap on a partner's logical thread is the owning worker's journey.
        ownerBeacon = UInt(bitPattern: TrapHandler.currentBeacon())
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        changed.initialize(to: pthread_cond_t())
        pthread_cond_init(changed, nil)
        nextRace = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        nextRace.initialize(to: pthread_cond_t())
        pthread_cond_init(nextRace, nil)
        trace.reserveCapacity(Self.traceCapacity)
        inputs.reserveCapacity(Self.maximumThreads)
        _ = ControlledScheduling.shared
    }

    deinit {
        pthread_cond_destroy(changed)
        changed.deallocate()
        pthread_cond_destroy(nextRace)
        nextRace.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// How many distinct threads of execution delivered the last race's inputs, observed, not
    /// assumed: OS threads (a race served by the paired worker or a partner thread has two), or,
    /// on fibers, the fibers' stacks.
    var lastRaceThreads: Int {
        acquire()
        defer { release() }
        var count = 0
        for thread in 0..<threadCount where !deliveredOn[..<thread].contains(deliveredOn[thread]) { count += 1 }
        return count
    }

    /// The decider of the last race (exhaustive: its choices and their branching).
    var lastDecider: ScheduleDecider {
        acquire()
        defer { release() }
        return decider
    }

    /// Delivers `first` on this thread and `second` (and `third`) on other logical threads,
    /// interleaved at the target's schedule points by `schedule`, seeded with `seed` (exhaustive:
    /// replaying `prefix` first). Under a controlled schedule (where ``RaceFibers/available``) the
    /// logical threads are fibers on this thread; otherwise each other input runs on the paired
    /// worker or a partner thread (all at once, unscheduled, under `os`). Returns when every input
    /// was delivered (or, on fibers, the race was given up).
    func run(
        on target: any RaceTarget,
        _ first: RaceInput,
        _ second: RaceInput? = nil,
        _ third: RaceInput? = nil,
        schedule: ScheduleMode,
        seed: UInt64,
        prefix: [UInt8] = [],
        faults: UInt8
    ) {
        precondition(second != nil || third == nil, "a race's inputs come in order")
        let request = Request(
            target: target,
            first: first,
            second: second,
            third: third,
            schedule: schedule,
            seed: seed,
            prefix: prefix,
            faults: faults
        )
        let count = request.count
        if schedule.isControlled, RaceFibers.available {
            runOnFibers(request)
            return
        }
        let spinning = spinPays()
        // The owner's switches during the race (asking the peer, token hand-offs) are the run's
        // own: one reading at each end (a `getrusage` costs ~350 ns here, and a race took six).
        var switches = RaceSwitches.ofCallingThread()
        defer { RaceSwitches.book(since: &switches) }
        // Asked even when spinning does not pay: the peer's thread parks at hand-offs then, with no
        // thread of the race's own to wake.
        let peer = count == 2 ? askPeer(switches: &switches) : nil
        while partners < count - 1 - (peer == nil ? 0 : 1) { startPartner(partners + 1) }
        // Before any input runs: only the race's resolver pays for its points, only during it. A
        // free race (`os`) passes none unless a fault is planted at them: nothing would be decided
        // there, and each point would take this race's mutex, ordering the two threads.
        let passesPoints = schedule.isControlled || faults != 0
        if passesPoints { target.passSchedulePoints(true) }
        acquire()
        setUp(request)
        servedByPeer = peer == nil ? -1 : 1
        spinsForTurn = spinning && (peer != nil || spareCore)
        generation += 1
        announce()
        if peer == nil { pthread_cond_broadcast(nextRace) }
        let input = self.inputs[0]
        if let peer {
            release()
            peer.post(self, thread: 1)
            acquire()
        }
        waitForTurn(0)
        release()

        ControlledScheduling.shared.enter(self, as: 0)
        target.deliver(input)
        finish(0)
        ControlledScheduling.shared.enter(nil, as: 0)

        acquire()
        while finished < threadCount { awaitChange(forTurn: spinsForTurn) }
        self.target = nil
        release()
        // Every input delivered: no thread is inside the resolver any more.
        if passesPoints { target.passSchedulePoints(false) }
    }

    /// One race as ``run(on:_:_:_:schedule:seed:prefix:faults:)`` was given it.
    private struct Request {
        let target: any RaceTarget
        let first: RaceInput
        let second: RaceInput?
        let third: RaceInput?
        let schedule: ScheduleMode
        let seed: UInt64
        let prefix: [UInt8]
        let faults: UInt8

        var count: Int { 1 + (second == nil ? 0 : 1) + (third == nil ? 0 : 1) }
    }

    /// With `mutex` held: the race's state for a new race.
    private func setUp(_ request: Request) {
        target = request.target
        inputs.removeAll(keepingCapacity: true)
        inputs.append(request.first)
        if let second = request.second { inputs.append(second) }
        if let third = request.third { inputs.append(third) }
        threadCount = request.count
        finished = 0
        for thread in 0..<Self.maximumThreads {
            status[thread] = 0
            blockedOn[thread] = nil
            parkedAt[thread] = nil
            deliveredOn[thread] = 0
        }
        decider.restart(mode: request.schedule, seed: request.seed, threads: request.count, prefix: request.prefix)
        faults = request.faults
        free = !request.schedule.isControlled
        roundRobin = false
        abandoned = false
        steps = 0
        trace.removeAll(keepingCapacity: true)
        hang = nil
        coverage = ScheduleCoverage()
        token = free ? -1 : decider.choose(current: -1, runnable: runnableMask, step: 0)
    }

    /// A controlled race on fibers: each logical thread a fiber on this thread, resumed in turn
    /// from here whenever the token moves to it; nothing else runs meanwhile.
    private func runOnFibers(_ request: Request) {
        let fibers = self.fibers ?? RaceFibers(count: Self.maximumThreads)
        self.fibers = fibers
        request.target.passSchedulePoints(true)
        acquire()
        setUp(request)
        onFibers = true
        pthread_mutex_unlock(mutex)
        let raw = Unmanaged.passUnretained(self).toOpaque()
        for thread in 0..<request.count { fibers.prepare(thread, entry: Self.fiberEntry, argument: raw + thread) }
        while true {
            acquire()
            let next = token
            let over = finished == threadCount || abandoned || next < 0
            release()
            if over { break }
            ControlledScheduling.shared.enter(self, as: next)
            fibers.resume(next)
        }
        ControlledScheduling.shared.enter(nil, as: 0)
        onFibers = false
        acquire()
        target = nil
        release()
        request.target.passSchedulePoints(false)
    }

    /// A fiber's entry: the race's address with the logical thread in its low bits (an object's
    /// address is 16-byte aligned).
    private static let fiberEntry: @convention(c) (UnsafeMutableRawPointer?) -> Void = { raw in
        guard let raw else { return }
        let thread = Int(bitPattern: UInt(bitPattern: raw) & 7)
        Unmanaged<ControlledRace>.fromOpaque(raw - thread).takeUnretainedValue().runFiber(thread)
    }

    /// On fiber `thread`: delivers its input and finishes it; returning ends the fiber.
    private func runFiber(_ thread: Int) {
        acquire()
        let input = inputs[thread]
        let target = self.target
        release()
        target?.deliver(input)
        finish(thread)
    }

    /// Ends the partner threads.
    func stop() {
        acquire()
        stopping = true
        announce()
        pthread_cond_broadcast(nextRace)
        release()
    }

    /// The paired worker's desk when the peer took this race, else nil. `switches` is the race's
    /// reading of ``RaceSwitches``: a race served meanwhile books its own switches, so the wait's
    /// are booked before it and the reading is taken again after it.
    private func askPeer(switches: inout UInt64) -> RaceDesk? {
        guard let peering else { return nil }
        let took = peering.peer.ask {
            guard peering.servesWhileAsking, peering.own.isAsked else { return false }
            RaceSwitches.book(since: &switches)
            defer { switches = RaceSwitches.ofCallingThread() }
            return peering.own.serveIfAsked()
        }
        recordSpin(caught: took)
        return took ? peering.peer : nil
    }

    /// Whether a partner thread spins for the next race: with a core to spare, while spinning pays.
    private var spinsBetweenRaces: Bool { spareCore && spinCredit.load(ordering: .relaxed) > 0 }

    /// Whether this race spins (``spinCredit``); counts the races that do not, and probes.
    private func spinPays() -> Bool {
        if spinCredit.load(ordering: .relaxed) > 0 { return true }
        racesWithoutSpinning += 1
        guard racesWithoutSpinning >= Self.spinProbeInterval else { return false }
        racesWithoutSpinning = 0
        spinCredit.store(Self.spinMissCost, ordering: .relaxed)
        return true
    }

    private func recordSpin(caught: Bool) {
        let credit = spinCredit.load(ordering: .relaxed)
        let next = caught ? min(Self.maximumSpinCredit, credit + 1) : max(0, credit - Self.spinMissCost)
        // Two threads of a race may record at once: a lost update only delays the verdict.
        spinCredit.store(next, ordering: .relaxed)
    }

    /// On the paired worker's thread (``RaceDesk``): runs logical thread `thread` of the race just
    /// set up, as a partner thread would.
    func serve(_ thread: Int) {
        let own = TrapHandler.currentBeacon()
        TrapHandler.adopt(UnsafeMutableRawPointer(bitPattern: ownerBeacon))
        defer { TrapHandler.adopt(own) }
        // Its switches during the race are the run's own, as a partner thread's are.
        var switches = RaceSwitches.ofCallingThread()
        defer { RaceSwitches.book(since: &switches) }
        acquire()
        guard servedByPeer == thread, let target else {
            release()
            return
        }
        ControlledScheduling.shared.enter(self, as: thread)
        deliverInput(of: thread, to: target)
        ControlledScheduling.shared.enter(nil, as: thread)
    }

    /// With `mutex` held: waits for `thread`'s turn, then, with the mutex released, delivers its
    /// input and finishes it (a partner thread's race, or the paired worker's).
    private func deliverInput(of thread: Int, to target: any RaceTarget) {
        let input = inputs[thread]
        waitForTurn(thread)
        release()
        target.deliver(input)
        finish(thread)
    }

    private func startPartner(_ thread: Int) {
        partners += 1
        let beacon = ownerBeacon
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
        acquire()
        var seen = seen
        // A partner thread only ever races: all its switches are the run's own.
        var switches = RaceSwitches.ofCallingThread()
        while true {
            while generation == seen, !stopping {
                awaitChange(idleSpinNanos: spinsBetweenRaces ? RacePartner.spinNanos : 0, parkingOn: nextRace)
            }
            if stopping { break }
            seen = generation
            guard thread < threadCount, thread != servedByPeer, let target else { continue }
            deliverInput(of: thread, to: target)
            RaceSwitches.book(since: &switches)
            acquire()
        }
        release()
    }

    // MARK: - Schedule points (called with `mutex` not held)

    func plants(_ fault: ConcurrencyFault) -> Bool { faults & (1 << fault.rawValue) != 0 }

    func reach(_ point: SchedulePoint, thread: Int) {
        acquire()
        defer { release() }
        guard !free else { return }
        if !onFibers { progress.add(1, ordering: .relaxed) }
        steps += 1
        if trace.count < Self.traceCapacity { trace.append(ScheduleStep(thread: UInt8(thread), point: point)) }
        coverage.reach(point)
        if steps > Self.stepBound {
            if hang == nil { hang = .livelock }
            guard onFibers else {
                runFree()
                return
            }
            // Fibers cannot run free: they take turns at every point, and are given up past the
            // second bound.
            roundRobin = true
            if steps > Self.abandonBound { abandoned = true }
        }
        parkedAt[thread] = point
        let next = chooseNext(after: thread)
        guard next != thread || abandoned else { return }
        if let other = parkedAt[next] { coverage.interleave(parked: point, passed: other) }
        token = next
        announce()
        awaitTurn(thread)
    }

    /// The next token holder after `thread` passed a point or blocked: the decider's choice, or
    /// past the step bound on fibers the next runnable thread in order.
    private func chooseNext(after thread: Int) -> Int {
        let runnable = runnableMask
        guard roundRobin else { return decider.choose(current: thread, runnable: runnable, step: steps) }
        var next = thread
        for _ in 0..<threadCount {
            next = (next + 1) % threadCount
            if runnable & (1 << UInt32(next)) != 0 { return next }
        }
        return thread
    }

    /// With `mutex` held: waits until the token is `thread`'s (on fibers: yields to the owner's
    /// stack, which resumes this fiber when it is; an abandoned race's fibers are never resumed).
    private func awaitTurn(_ thread: Int) {
        guard onFibers, let fibers else {
            waitForTurn(thread)
            return
        }
        release()
        fibers.yield(thread)
        acquire()
    }

    func lock(_ lock: UnsafeMutablePointer<pthread_mutex_t>, thread: Int) {
        reach(.lockAcquire, thread: thread)
        while pthread_mutex_trylock(lock) != 0 {
            acquire()
            if free {
                release()
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
                // On fibers the race is given up: this fiber is never resumed.
                if onFibers { awaitTurn(thread) }
                release()
                pthread_mutex_lock(lock)
                return
            }
            token = chooseNext(after: thread)
            announce()
            awaitTurn(thread)
            release()
        }
    }

    func unlock(_ lock: UnsafeMutablePointer<pthread_mutex_t>, thread: Int) {
        pthread_mutex_unlock(lock)
        acquire()
        for other in 0..<threadCount where status[other] == 1 && blockedOn[other] == UnsafeMutableRawPointer(lock) {
            status[other] = 0
            blockedOn[other] = nil
        }
        release()
        reach(.lockRelease, thread: thread)
    }

    // MARK: - The token (called with `mutex` held)

    private var runnableMask: UInt32 {
        var mask: UInt32 = 0
        for thread in 0..<threadCount where status[thread] == 0 { mask |= 1 << UInt32(thread) }
        return mask
    }

    private func waitForTurn(_ thread: Int) {
        while !free, token != thread { awaitChange(forTurn: spinsForTurn) }
    }

    /// Locks `mutex`, spinning on a try-lock before it parks: the other logical thread holds it
    /// only for a moment (a step's bookkeeping), and a plain lock would park on it at once.
    private func acquire() {
        // Fibers share the owner's OS thread: nothing else touches the race while they run.
        if onFibers { return }
        guard pthread_mutex_trylock(mutex) != 0 else { return }
        if !BoundedSpin.spin(forNanos: Self.minimumSpinNanos, while: { pthread_mutex_trylock(mutex) != 0 }) {
            pthread_mutex_lock(mutex)
        }
    }

    /// Unlocks `mutex` (``acquire()``'s counterpart; nothing on fibers).
    private func release() {
        if onFibers { return }
        pthread_mutex_unlock(mutex)
    }

    /// Wakes the waiters: something they wait for changed.
    private func announce() {
        if onFibers { return }
        changes.add(1, ordering: .relaxed)
        pthread_cond_broadcast(changed)
    }

    /// Waits for the token: ``awaitChange(idleSpinNanos:)``, spinning while the holder progresses
    /// when `spinning` (``handOffStallNanos``), else ``minimumSpinNanos``.
    private func awaitChange(forTurn spinning: Bool) {
        awaitChange(idleSpinNanos: spinning ? 0 : Self.minimumSpinNanos, followingProgress: spinning)
    }

    /// Returns after the next ``announce()`` (or spuriously; callers recheck): spins with `mutex`
    /// released, for `idleSpinNanos` or, `followingProgress`, while ``progress`` moves, then parks
    /// on `condition` (default `changed`).
    private func awaitChange(
        idleSpinNanos: UInt64,
        followingProgress: Bool = false,
        parkingOn condition: UnsafeMutablePointer<pthread_cond_t>? = nil
    ) {
        let seen = changes.load(ordering: .relaxed)
        if idleSpinNanos > 0 || followingProgress {
            release()
            let unchanged = { self.changes.load(ordering: .relaxed) == seen }
            let caught =
                followingProgress
                ? BoundedSpin.spin(
                    whileProgressing: { self.progress.load(ordering: .relaxed) },
                    stallNanos: Self.handOffStallNanos,
                    while: unchanged
                )
                : BoundedSpin.spin(forNanos: idleSpinNanos, while: unchanged)
            if followingProgress { recordSpin(caught: caught) }
            acquire()
            // Changes are made under `mutex`: none since `seen` means none can be missed below.
            if changes.load(ordering: .relaxed) != seen { return }
        }
        pthread_cond_wait(condition ?? changed, mutex)
    }

    /// After a hang: OS threads run free (real locks, no token); fibers cannot, and the race is
    /// given up.
    private func runFree() {
        if onFibers {
            abandoned = true
            return
        }
        free = true
        token = -1
        announce()
    }

    private func finish(_ thread: Int) {
        acquire()
        defer { release() }
        deliveredOn[thread] = onFibers ? fibers?.identity(thread) ?? 0 : pthread_self()
        status[thread] = 2
        finished += 1
        defer { announce() }
        guard !free else { return }
        let runnable = runnableMask
        if runnable != 0 {
            token = chooseNext(after: thread)
        } else if finished < threadCount {
            hang = .deadlock
            runFree()
        } else {
            token = -1
        }
    }
}
