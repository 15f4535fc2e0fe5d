import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A dedicated thread that runs one closure at the same moment as its owner runs another, so
/// that two inputs reach the resolver from two threads at once.
///
/// The owner posts the partner's closure and wakes it (a semaphore: no CPU burnt between races);
/// both then spin (yielding) on a shared start flag, run their closures, and the owner waits
/// (yielding) until the partner is done. A partner that does not wake in time is bypassed: the
/// owner withdraws the task (compare-and-swap, so it runs exactly once) and runs it itself.
///
/// Thread safety: ``race(_:_:)`` and ``stop()`` are called by the owning worker only.
final class RacePartner: Sendable {
    private let wake = DispatchSemaphore(value: 0)
    private let task = Mutex<(@Sendable () -> Void)?>(nil)
    /// 0 idle, 1 posted, 2 partner ready, 3 go, 4 partner done, -1 stop.
    private let phase = Atomic<Int>(0)

    init() {
        let thread = Thread { [self] in self.loop() }
        thread.stackSize = 1 << 20
        thread.start()
    }

    private func loop() {
        while true {
            wake.wait()
            if phase.load(ordering: .acquiring) == -1 { return }
            // Take the posted task; a task the owner withdrew (it gave up waiting) is not run.
            guard phase.compareExchange(expected: 1, desired: 2, ordering: .acquiringAndReleasing).exchanged else {
                continue
            }
            let work = task.withLock { $0 }
            while phase.load(ordering: .acquiring) == 2 { sched_yield() }
            if phase.load(ordering: .acquiring) == -1 { return }
            work?()
            phase.store(4, ordering: .releasing)
        }
    }

    /// Runs `mine` here and `theirs` on the partner thread, released together. If the partner does
    /// not pick the task up within a second (an overloaded machine), the owner withdraws it and
    /// runs both itself, one after the other: slower, never lost or run twice.
    func race(_ mine: @Sendable () -> Void, _ theirs: @escaping @Sendable () -> Void) {
        task.withLock { $0 = theirs }
        phase.store(1, ordering: .releasing)
        wake.signal()
        let deadline = Runner.monotonicNanos() &+ 1_000_000_000
        while phase.load(ordering: .acquiring) != 2 {
            sched_yield()
            if Runner.monotonicNanos() > deadline,
                phase.compareExchange(expected: 1, desired: 0, ordering: .acquiringAndReleasing).exchanged
            {
                task.withLock { $0 = nil }
                mine()
                theirs()
                return
            }
        }
        phase.store(3, ordering: .releasing)
        mine()
        while phase.load(ordering: .acquiring) != 4 { sched_yield() }
        task.withLock { $0 = nil }
        phase.store(0, ordering: .releasing)
    }

    /// Ends the partner thread.
    func stop() {
        phase.store(-1, ordering: .releasing)
        wake.signal()
    }
}
