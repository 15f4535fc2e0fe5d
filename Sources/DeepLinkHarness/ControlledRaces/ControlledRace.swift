import DeepLinkCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One worker's races: the logical threads of a racing journey (the worker's own input and one or
/// two partners' inputs), gated by one token; at each of the target's schedule points a
/// ``ScheduleDecider`` picks which of them holds it next. Whose turn it is is a value,
/// ``RaceTurns``; this class runs the logical threads and makes each wait for its turn.
///
/// Under a controlled schedule only one logical thread runs at a time, so they run as fibers on
/// the worker's own thread (``RaceFibers``): passing the token is a stack switch, nothing spins and
/// nothing waits for another core or for a time-out, so a race's cost does not depend on the
/// machine's load and nothing in it depends on timing. `Locked`'s acquire is modelled as a
/// try-lock: a logical thread that finds the lock taken (by a thread parked inside its critical
/// section) is blocked until the holder releases it, and the token moves on. A race that passes
/// ``RaceTurns/stepBound`` points (livelock) is recorded as a ``ScheduleHang`` and its threads
/// then take turns at every point, in order, so that one spinning for another lets it run; a
/// deadlock (every unfinished thread blocked), or a livelock past ``RaceTurns/abandonBound``,
/// gives the race up (its fibers stay suspended; the journey is `hung`).
///
/// Where fibers are not available (``RaceFibers/available``: sanitizer builds, other CPUs), and
/// under `os`, the logical threads are OS threads, and a ``RaceLock`` guards the turns: when the
/// worker is paired (``RacePeering``), the paired worker runs the partner's logical thread between
/// its own journeys (``RaceDesk``), and otherwise a partner thread of the race's own does. A thread
/// waiting for its turn spins on a change counter (``BoundedSpin``, with the lock released) while
/// the token's holder passes schedule points, and parks on the lock's condition once they stop;
/// ``spinCredit`` turns spinning off while it does not pay (a loaded machine). After a hang the
/// threads run free (real locks, no token) so that the journey can finish if it is able to. How
/// the threads wait never changes whose turn it is, so a seed's interleaving is the same on fibers
/// and on threads.
///
/// Thread safety: ``run(on:_:_:_:schedule:seed:prefix:faults:)`` is called by the owning worker
/// only; the schedule-point calls come from the race's logical threads and take the race's lock.
final class ControlledRace: @unchecked Sendable {
    /// When each thread of the race has a core (a race on the paired worker, or a run with cores
    /// to spare), a logical thread waiting for the token spins while the token's holder passes
    /// schedule points, and parks once none came for this long (the holder was preempted, or
    /// blocked: spinning on would only keep it off a core).
    static let handOffStallNanos: UInt64 = 20_000
    static let maximumSpinCredit = 16
    static let spinMissCost = 4
    static let spinProbeInterval = 64
    /// The spin otherwise (and of a wait for the lock): one clock read. A thread spinning for its
    /// turn would keep the thread whose turn it is, or another worker, off the core.
    static let minimumSpinNanos: UInt64 = 1_000

    let raceLock = RaceLock()
    /// Bumped under `raceLock` with every broadcast of `changed`; read without the lock by a spinning
    /// waiter (a hint only: the waiter rechecks its condition under the lock).
    let changes = Atomic<UInt64>(0)
    /// Bumped at every schedule point a controlled thread passes: a spinning waiter's sign that
    /// the token's holder is running.
    let progress = Atomic<UInt64>(0)
    let peering: RacePeering?
    /// The owning worker's beacon (``TrapHandler``), as bits.
    let ownerBeacon: UInt
    /// Whether the run leaves a core to spare for the race's partner threads.
    let spareCore: Bool
    /// Whether each race keeps its steps in ``trace`` (``RaceTurns/recordsTrace``).
    let recordsTraces: Bool
    /// Whether spinning pays on this machine now: spins that caught their turn add a credit, spins
    /// that ran out (and asks the peer did not answer) take ``spinMissCost``; at zero the races'
    /// threads park at once, as two threads that must take turns on one core do best, and every
    /// ``spinProbeInterval`` races one tries spinning again.
    let spinCredit = Atomic<Int>(ControlledRace.maximumSpinCredit)

    // Everything below is guarded by `raceLock` (on fibers, by running on the owner's thread alone),
    // so the hot ones need no dynamic exclusivity check on top: `@exclusivity(unchecked)`.
    var partners = 0
    /// The logical thread the paired worker runs in this race (-1: none; partner threads skip it).
    var servedByPeer = -1
    /// Whether this race's threads spin for their turn while its holder progresses
    /// (``handOffStallNanos``), or for ``minimumSpinNanos`` only.
    var spinsForTurn = false
    /// Races run without spinning since the credit ran out (owner only).
    var racesWithoutSpinning = 0
    var generation = 0
    var stopping = false
    @exclusivity(unchecked) var target: (any RaceTarget)?
    @exclusivity(unchecked) var inputs: [RaceInput] = []
    @exclusivity(unchecked) var turns = RaceTurns()
    /// The OS thread that delivered each logical thread's input (recorded as it finishes).
    @exclusivity(unchecked) var deliveredOn = [pthread_t](repeating: 0, count: RaceTurns.maximumThreads)
    @exclusivity(unchecked) var faults: UInt8 = 0
    /// This race runs its logical threads as fibers on the owner's thread (``RaceFibers``).
    @exclusivity(unchecked) var onFibers = false
    @exclusivity(unchecked) var fibers: RaceFibers?

    /// With `peering`, a two-input race asks the paired worker to run its partner's logical thread
    /// (``RaceDesk``), and starts a partner thread only when the peer does not answer. With
    /// `spareCore` (fewer workers than cores), partner threads spin between races
    /// (``RacePartner/spinNanos``) and for their turn; without, they park at once. With the
    /// `schedule` its races will run under, one that runs on fibers gets them now rather than in
    /// the first race. With `recordsTraces`, each race keeps its steps in ``trace``.
    init(
        peering: RacePeering? = nil,
        spareCore: Bool = false,
        schedule: ScheduleMode? = nil,
        recordsTraces: Bool = false
    ) {
        self.peering = peering
        self.spareCore = spareCore
        self.recordsTraces = recordsTraces
        if let schedule, schedule.isControlled, RaceFibers.available {
            fibers = RaceFibers(count: RaceTurns.maximumThreads)
        }
        // A trap on a partner's logical thread is the owning worker's journey.
        ownerBeacon = UInt(bitPattern: TrapHandler.currentBeacon())
        inputs.reserveCapacity(RaceTurns.maximumThreads)
        _ = ControlledScheduling.shared
    }

    /// Schedule points the last race passed.
    var steps: Int { turns.steps }
    /// The last race's steps, in order (the first ``RaceTurns/traceCapacity``; none without
    /// ``recordsTraces``).
    var trace: [ScheduleStep] { turns.trace }
    /// How the last race hung, if it did.
    var hang: ScheduleHang? { turns.hang }
    /// The points the last race reached and the pairs it interleaved.
    var coverage: ScheduleCoverage { turns.coverage }

    /// How many distinct threads of execution delivered the last race's inputs, observed, not
    /// assumed: OS threads (a race served by the paired worker or a partner thread has two), or,
    /// on fibers, the fibers' stacks.
    var lastRaceThreads: Int {
        acquire()
        defer { release() }
        var count = 0
        for thread in 0..<turns.threadCount where !deliveredOn[..<thread].contains(deliveredOn[thread]) { count += 1 }
        return count
    }

    /// The decider of the last race (exhaustive: its choices and their branching).
    var lastDecider: ScheduleDecider {
        acquire()
        defer { release() }
        return turns.decider
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
            count: 1 + (second == nil ? 0 : 1) + (third == nil ? 0 : 1),
            schedule: schedule,
            seed: seed,
            prefix: prefix,
            faults: faults
        )
        if schedule.isControlled, RaceFibers.available {
            runOnFibers(request, first, second, third)
        } else {
            runOnThreads(request, first, second, third)
        }
    }

    /// One race as ``run(on:_:_:_:schedule:seed:prefix:faults:)`` was given it, but its inputs:
    /// those are borrowed down to ``setUp(_:_:_:_:onFibers:)``, which stores each once (a copy of
    /// them in here cost a race more than its hand-overs do).
    struct Request {
        let target: any RaceTarget
        /// How many inputs, and so logical threads, the race has.
        let count: Int
        let schedule: ScheduleMode
        let seed: UInt64
        let prefix: [UInt8]
        let faults: UInt8
    }

    /// With the lock held: the race's state for a new race.
    private func setUp(
        _ request: Request,
        _ first: RaceInput,
        _ second: RaceInput?,
        _ third: RaceInput?,
        onFibers: Bool
    ) {
        target = request.target
        inputs.removeAll(keepingCapacity: true)
        inputs.append(first)
        if let second { inputs.append(second) }
        if let third { inputs.append(third) }
        for thread in deliveredOn.indices { deliveredOn[thread] = 0 }
        faults = request.faults
        turns.start(
            schedule: request.schedule,
            seed: request.seed,
            threads: request.count,
            prefix: request.prefix,
            onFibers: onFibers,
            recordingTrace: recordsTraces
        )
    }

    /// A race on OS threads: this one, and the paired worker or partner threads.
    private func runOnThreads(_ request: Request, _ first: RaceInput, _ second: RaceInput?, _ third: RaceInput?) {
        let target = request.target
        let spinning = spinPays()
        // The owner's switches during the race (asking the peer, token hand-offs) are the run's
        // own: one reading at each end (a `getrusage` is dear next to a race).
        var switches = RaceSwitches.ofCallingThread()
        defer { RaceSwitches.book(since: &switches) }
        // Asked even when spinning does not pay: the peer's thread parks at hand-offs then, with no
        // thread of the race's own to wake.
        let peer = request.count == 2 ? askPeer(switches: &switches) : nil
        while partners < request.count - 1 - (peer == nil ? 0 : 1) { startPartner(partners + 1) }
        // Before any input runs: only the race's resolver pays for its points, only during it. A
        // free race (`os`) passes none unless a fault is planted at them: nothing would be decided
        // there, and each point would take this race's lock, ordering the two threads.
        let passesPoints = request.schedule.isControlled || request.faults != 0
        if passesPoints { target.passSchedulePoints(true) }
        acquire()
        setUp(request, first, second, third, onFibers: false)
        servedByPeer = peer == nil ? -1 : 1
        spinsForTurn = spinning && (peer != nil || spareCore)
        generation += 1
        announce()
        if peer == nil { raceLock.broadcast(.nextRace) }
        let input = inputs[0]
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
        while turns.finishedCount < turns.threadCount { awaitChange(forTurn: spinsForTurn) }
        self.target = nil
        release()
        // Every input delivered: no thread is inside the resolver any more.
        if passesPoints { target.passSchedulePoints(false) }
    }

    /// A controlled race on fibers: each logical thread a fiber on this thread, resumed in turn
    /// from here whenever the token moves to it; nothing else runs meanwhile.
    private func runOnFibers(_ request: Request, _ first: RaceInput, _ second: RaceInput?, _ third: RaceInput?) {
        let fibers = self.fibers ?? RaceFibers(count: RaceTurns.maximumThreads)
        self.fibers = fibers
        request.target.passSchedulePoints(true)
        // Partner threads of an earlier race on OS threads read the race under its lock.
        acquire()
        setUp(request, first, second, third, onFibers: true)
        onFibers = true
        raceLock.release()
        let raw = Unmanaged.passUnretained(self).toOpaque()
        for thread in 0..<request.count { fibers.prepare(thread, entry: Self.fiberEntry, argument: raw + thread) }
        while let next = turns.holder {
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
        // The owner holds the race until every fiber returned: no retain for the fiber's run.
        Unmanaged<ControlledRace>.fromOpaque(raw - thread)._withUnsafeGuaranteedRef { $0.runFiber(thread) }
    }

    /// On fiber `thread`: delivers its input (in place: a local copy of it cost a copy) and
    /// finishes it; returning ends the fiber.
    private func runFiber(_ thread: Int) {
        target?.deliver(inputs[thread])
        finish(thread)
    }

    /// Ends the partner threads.
    func stop() {
        acquire()
        stopping = true
        announce()
        raceLock.broadcast(.nextRace)
        release()
    }
}
