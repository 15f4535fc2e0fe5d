import DeepLinkCore
import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A dedicated thread that delivers one input at the same moment as its owner delivers another,
/// so that two inputs reach the resolver from two threads at once (the OS scheduler decides the
/// interleaving).
///
/// Between races the partner spins, bounded (``spinNanos`` after its last race), so that a race
/// that follows soon after the previous one (the common case: a run's racing journeys come every
/// few journeys) starts without waking a sleeping thread; only after a quiet spell does it park on
/// a semaphore, and the next race wakes it. The owner posts the partner's input; both then spin on
/// a shared start flag, deliver their inputs, and the owner waits until the partner is done. Every
/// wait spins without yielding for ``yieldAfterNanos`` first: on a loaded machine a yield hands the
/// core to another process for a whole time slice (measured: ~1 ms per race at load 9 on 2 cores
/// when every spin yielded), while the other thread is usually a few hundred nanoseconds away. A partner that does not pick the input up in time is bypassed: the owner withdraws it
/// (compare-and-swap, so it runs exactly once) and delivers both itself.
///
/// Thread safety: ``race(on:mine:theirs:)`` and ``stop()`` are called by the owning worker only.
final class RacePartner: Sendable {
    /// How long the partner spins for the next race before it parks (50 µs: a few journeys).
    static let spinNanos: UInt64 = 50_000
    /// How long a wait spins before it starts yielding the CPU (it then yields between checks, so
    /// that a partner and owner sharing one core can both run).
    static let yieldAfterNanos: UInt64 = 20_000
    /// Spin iterations between clock reads (a few hundred nanoseconds).
    static let spinsPerCheck = 64

    private let wake = DispatchSemaphore(value: 0)
    private let task = Locked<(target: any RaceTarget, input: RaceInput)?>(nil)
    /// 0 idle, 1 posted, 2 partner ready, 3 go, 4 partner done, -1 stop.
    private let phase = Atomic<Int>(0)
    /// Set while the partner sleeps on `wake` (or is about to): only then does the owner post a
    /// wake-up. Partner and owner each store their flag and then read the other's (sequentially
    /// consistent), so at least one of them sees the other: no lost wake-up, no stray one.
    private let parked = Atomic<Bool>(false)
    /// The partner thread's id (`pthread_self`), stored before the partner delivers its input.
    private let partnerThread = Atomic<UInt>(0)
    /// How many distinct OS threads delivered the last race's inputs (owner only): 2, or 1 when
    /// the owner withdrew the task and delivered both.
    var lastRaceThreads: Int { lastThreads.load(ordering: .relaxed) }
    private let lastThreads = Atomic<Int>(0)

    init() {
        // A trap on the partner thread is the owning worker's journey.
        let beacon = UInt(bitPattern: TrapHandler.currentBeacon())
        let thread = Thread { [self] in
            TrapHandler.adopt(UnsafeMutableRawPointer(bitPattern: beacon))
            self.loop()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    private func loop() {
        // This thread only ever races (or spins for the next race): all its switches are the run's.
        var switches = RaceSwitches.ofCallingThread()
        while true {
            RaceSwitches.book(since: &switches)
            waitForPost()
            let current = phase.load(ordering: .acquiring)
            if current == -1 { return }
            // Take the posted task; a task the owner withdrew (it gave up waiting) is not run.
            guard current == 1,
                phase.compareExchange(expected: 1, desired: 2, ordering: .acquiringAndReleasing).exchanged
            else { continue }
            let work = task.withLock { $0 }
            Self.spin { phase.load(ordering: .acquiring) == 2 }
            if phase.load(ordering: .acquiring) == -1 { return }
            partnerThread.store(UInt(pthread_self()), ordering: .relaxed)
            if let work { work.target.deliver(work.input) }
            phase.store(4, ordering: .releasing)
        }
    }

    /// Returns once the phase is no longer idle: spins up to ``spinNanos``, then parks.
    private func waitForPost() {
        let deadline = Runner.monotonicNanos() &+ Self.spinNanos
        while phase.load(ordering: .acquiring) == 0 {
            for _ in 0..<Self.spinsPerCheck where phase.load(ordering: .relaxed) != 0 { return }
            if Runner.monotonicNanos() < deadline { continue }
            parked.store(true, ordering: .sequentiallyConsistent)
            if phase.load(ordering: .sequentiallyConsistent) == 0 {
                wake.wait()
            } else if !parked.exchange(false, ordering: .sequentiallyConsistent) {
                // The owner saw the flag and is signalling: take that signal, or the next park
                // would return at once.
                wake.wait()
            }
            return
        }
    }

    /// Sets the phase and wakes the partner if it parked.
    private func post(_ value: Int) {
        phase.store(value, ordering: .sequentiallyConsistent)
        if parked.exchange(false, ordering: .sequentiallyConsistent) { wake.signal() }
    }

    /// Spins while `condition` holds: without yielding for ``yieldAfterNanos``, then yielding the
    /// CPU every ``spinsPerCheck`` checks. Returns false when `giveUpAfterNanos` passed first.
    @inline(__always)
    @discardableResult
    private static func spin(giveUpAfterNanos limit: UInt64 = .max, while condition: () -> Bool) -> Bool {
        var spins = 0
        var start: UInt64 = 0
        while condition() {
            spins &+= 1
            guard spins % spinsPerCheck == 0 else { continue }
            let now = Runner.monotonicNanos()
            if start == 0 { start = now }
            let waited = now &- start
            if waited > limit { return false }
            if waited > yieldAfterNanos { sched_yield() }
        }
        return true
    }

    /// Delivers `mine` here and `theirs` on the partner thread, released together. If the partner
    /// does not pick the task up within a second (an overloaded machine), the owner withdraws it
    /// and delivers both itself, one after the other: slower, never lost or run twice.
    func race(on target: any RaceTarget, mine: RaceInput, theirs: RaceInput) {
        // The owner's switches during the race (spinning beside its partner) are the run's own.
        var switches = RaceSwitches.ofCallingThread()
        defer { RaceSwitches.book(since: &switches) }
        task.withLock { $0 = (target, theirs) }
        post(1)
        while !Self.spin(giveUpAfterNanos: 1_000_000_000, while: { phase.load(ordering: .acquiring) != 2 }) {
            guard phase.compareExchange(expected: 1, desired: 0, ordering: .acquiringAndReleasing).exchanged else {
                // The partner took it meanwhile: the race goes ahead.
                continue
            }
            task.withLock { $0 = nil }
            target.deliver(mine)
            target.deliver(theirs)
            lastThreads.store(1, ordering: .relaxed)
            return
        }
        phase.store(3, ordering: .releasing)
        target.deliver(mine)
        Self.spin { phase.load(ordering: .acquiring) != 4 }
        task.withLock { $0 = nil }
        lastThreads.store(partnerThread.load(ordering: .relaxed) == UInt(pthread_self()) ? 1 : 2, ordering: .relaxed)
        phase.store(0, ordering: .releasing)
    }

    /// Ends the partner thread.
    func stop() {
        post(-1)
    }
}
