import DeepLinkCore

/// Whose turn it is in one controlled race, as a value: each logical thread's ``ThreadState``, the
/// token's ``State``, the schedule's choices (``ScheduleDecider``) and the race's record (steps,
/// trace, coverage, hang).
///
/// A logical thread reports an event (it passes a schedule point, finds a lock taken, releases a
/// lock, finishes); the event moves the token and returns the ``Action`` the reporting thread
/// takes. Waiting is not in here: ``ControlledRace`` waits, on fibers or on OS threads, and
/// guards this value with its lock. So the rules of a race (the decider's choice, the step bounds,
/// deadlock and livelock) can be checked one event at a time, without threads.
///
/// Thread safety: a value type; its ``ControlledRace`` changes it under its lock.
struct RaceTurns {
    /// The most logical threads a race has: the worker and two partners.
    static let maximumThreads = 3
    /// Schedule points a race may pass before it counts as livelocked.
    static let stepBound = 20_000
    /// Fibers: points past which a livelocked race (taking turns round robin) is given up.
    static let abandonBound = 4 * stepBound
    /// Steps kept for ``trace`` (a race passes far fewer; the count goes on past it).
    static let traceCapacity = 4_096

    /// Who may run.
    enum State: Equatable {
        /// No race is running: none was started, or every logical thread finished.
        case idle
        /// Unscheduled: every logical thread runs at will (an `os` race, or a race on OS threads
        /// after a hang, so that the journey can finish if it is able to).
        case free
        /// `holder` holds the token; at each schedule point the decider picks the next holder.
        case decided(holder: Int)
        /// On fibers past ``RaceTurns/stepBound`` (a livelock): `holder` holds the token, and the
        /// threads take turns point by point in order, so that one spinning for another lets it
        /// run, deterministically (fibers cannot run free).
        case roundRobin(holder: Int)
        /// On fibers, given up (a deadlock, or a livelock past ``RaceTurns/abandonBound``): no
        /// logical thread runs again, and the journey is judged `hung`.
        case abandoned
    }

    /// What one logical thread is doing (``state(of:)``).
    enum ThreadState: Equatable {
        case runnable
        /// Waiting for the lock at this address, which a parked logical thread holds.
        case blocked(on: UnsafeMutableRawPointer)
        case finished
    }

    /// What the logical thread that reported an event does next.
    enum Action: Equatable {
        /// Run on: the race is not scheduled (take a lock the plain way).
        case runUnscheduled
        /// Run on: it still holds the token.
        case proceed
        /// The token moved to another thread: wake the waiters, and wait for the token to return.
        case passTurn
        /// The race hung on OS threads and runs free from now on: wake the waiters, run on.
        case runFree
        /// The race was given up (on fibers): never run again.
        case abandon
    }

    private(set) var state = State.idle
    private(set) var threadCount = 0
    private(set) var finishedCount = 0
    /// A bit per runnable logical thread: neither blocked nor finished. Kept as a mask (not
    /// derived from each thread's state) because the decider takes one at every schedule point.
    private var runnable: UInt32 = 0
    /// Per logical thread (``maximumThreads``): the lock it is blocked on, if it is.
    private var blockedOn = InlineArray<3, UnsafeMutableRawPointer?>(repeating: nil)
    /// Per logical thread: the point it is parked before (`nil`: not started).
    private var parkedAt = InlineArray<3, SchedulePoint?>(repeating: nil)
    /// Fibers cannot run free: a hang gives the race up instead.
    private var onFibers = false
    private(set) var decider = ScheduleDecider(mode: .os, seed: 0, threads: 1)
    private(set) var steps = 0
    /// Whether ``trace`` records this race's steps: `replay` prints them; a run has no reader for
    /// them, and would pay an append at every schedule point.
    private(set) var recordsTrace = true
    private(set) var trace: [ScheduleStep] = []
    private(set) var hang: ScheduleHang?
    /// Schedule points reached and pairs interleaved (a thread parked before one point let
    /// another pass its point first).
    private(set) var coverage = ScheduleCoverage()

    init() {
        trace.reserveCapacity(Self.traceCapacity)
    }

    /// The logical thread holding the token, or `nil` when none does (idle, free, abandoned).
    var holder: Int? {
        switch state {
        case .decided(let holder), .roundRobin(let holder): holder
        case .idle, .free, .abandoned: nil
        }
    }

    /// What logical thread `thread` is doing.
    func state(of thread: Int) -> ThreadState {
        if runnable & (1 << UInt32(thread)) != 0 { return .runnable }
        if let lock = blockedOn[thread] { return .blocked(on: lock) }
        return .finished
    }

    /// Whether logical thread `thread` may run now: it holds the token, or the race is free.
    func mayRun(_ thread: Int) -> Bool {
        switch state {
        case .free: true
        case .decided(let holder), .roundRobin(let holder): holder == thread
        case .idle, .abandoned: false
        }
    }

    /// Starts a race of `count` logical threads under `schedule` (seeded with `seed`; exhaustive
    /// replays `prefix` first), reusing the storage of the last one; `recordingTrace` keeps its
    /// steps in ``trace``.
    mutating func start(
        schedule: ScheduleMode,
        seed: UInt64,
        threads count: Int,
        prefix: [UInt8],
        onFibers: Bool,
        recordingTrace: Bool = true
    ) {
        threadCount = count
        finishedCount = 0
        runnable = (1 << UInt32(count)) - 1
        for thread in 0..<Self.maximumThreads {
            blockedOn[thread] = nil
            parkedAt[thread] = nil
        }
        self.onFibers = onFibers
        decider.restart(mode: schedule, seed: seed, threads: count, prefix: prefix)
        steps = 0
        recordsTrace = recordingTrace
        // Only when there is something to remove: a race's start is short, and the call is not.
        if !trace.isEmpty { trace.removeAll(keepingCapacity: true) }
        hang = nil
        coverage = ScheduleCoverage()
        state =
            schedule.isControlled
            ? .decided(holder: decider.choose(current: -1, runnable: runnable, step: 0)) : .free
    }

    /// `thread`, holding the token, is about to pass `point`: the step is recorded, and the
    /// decider (or, past ``stepBound`` on fibers, the order) picks who runs next.
    @inline(__always)  // into the fiber's and the OS thread's schedule point: the point's whole cost
    mutating func reach(_ point: SchedulePoint, by thread: Int) -> Action {
        switch state {
        case .decided, .roundRobin: break
        case .idle, .free, .abandoned: return .runUnscheduled
        }
        steps += 1
        if recordsTrace, trace.count < Self.traceCapacity {
            trace.append(ScheduleStep(thread: UInt8(thread), point: point))
        }
        coverage.reach(point)
        var abandoning = false
        if steps > Self.stepBound {
            if hang == nil { hang = .livelock }
            guard onFibers else {
                state = .free
                return .runFree
            }
            state = .roundRobin(holder: thread)
            abandoning = steps > Self.abandonBound
        }
        parkedAt[thread] = point
        let next = chooseNext(after: thread)
        guard next != thread || abandoning else { return .proceed }
        if let other = parkedAt[next] { coverage.interleave(parked: point, passed: other) }
        if abandoning {
            state = .abandoned
            return .abandon
        }
        pass(to: next)
        return .passTurn
    }

    /// `thread`, holding the token, found `lock` taken (by a thread parked inside its critical
    /// section): it is blocked until the lock is released, and the token moves on. When no
    /// thread is left to run, the race is deadlocked.
    mutating func block(_ thread: Int, on lock: UnsafeMutableRawPointer) -> Action {
        switch state {
        case .decided, .roundRobin: break
        case .idle, .free, .abandoned: return .runUnscheduled
        }
        runnable &= ~(1 << UInt32(thread))
        blockedOn[thread] = lock
        guard runnable != 0 else {
            hang = .deadlock
            return giveUpTurns()
        }
        pass(to: chooseNext(after: thread))
        return .passTurn
    }

    /// `lock` was released: the threads blocked on it may run again.
    mutating func release(_ lock: UnsafeMutableRawPointer) {
        for thread in 0..<threadCount where blockedOn[thread] == lock {
            blockedOn[thread] = nil
            runnable |= 1 << UInt32(thread)
        }
    }

    /// `thread` delivered its input: the token moves on; the race is over once every thread
    /// finished, and deadlocked if those left are all blocked.
    mutating func finish(_ thread: Int) {
        runnable &= ~(1 << UInt32(thread))
        finishedCount += 1
        switch state {
        case .decided, .roundRobin: break
        case .idle, .free, .abandoned: return
        }
        if runnable != 0 {
            pass(to: chooseNext(after: thread))
        } else if finishedCount < threadCount {
            hang = .deadlock
            _ = giveUpTurns()
        } else {
            state = .idle
        }
    }

    /// After a hang: OS threads run free (real locks, no token); fibers cannot, and the race is
    /// given up.
    private mutating func giveUpTurns() -> Action {
        if onFibers {
            state = .abandoned
            return .abandon
        }
        state = .free
        return .runFree
    }

    /// Gives the token to `next`, taking turns as before (decided or round robin).
    private mutating func pass(to next: Int) {
        if case .roundRobin = state {
            state = .roundRobin(holder: next)
        } else {
            state = .decided(holder: next)
        }
    }

    /// The next token holder after `thread` passed a point, blocked or finished: the decider's
    /// choice, or round robin the next runnable thread in order.
    @inline(__always)
    private mutating func chooseNext(after thread: Int) -> Int {
        guard case .roundRobin = state else { return decider.choose(current: thread, runnable: runnable, step: steps) }
        var next = thread
        for _ in 0..<threadCount {
            next = (next + 1) % threadCount
            if runnable & (1 << UInt32(next)) != 0 { return next }
        }
        return thread
    }
}
