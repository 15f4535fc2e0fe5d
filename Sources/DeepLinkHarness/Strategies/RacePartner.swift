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
/// (yielding) until the partner is done. A deadline turns a lost partner into a crash-free
/// sequential fallback rather than a hang.
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
            let work = task.withLock { $0 }
            phase.store(2, ordering: .releasing)
            while phase.load(ordering: .acquiring) == 2 { sched_yield() }
            if phase.load(ordering: .acquiring) == -1 { return }
            work?()
            phase.store(4, ordering: .releasing)
        }
    }

    /// Runs `mine` here and `theirs` on the partner thread, released together.
    func race(_ mine: @Sendable () -> Void, _ theirs: @escaping @Sendable () -> Void) {
        task.withLock { $0 = theirs }
        phase.store(1, ordering: .releasing)
        wake.signal()
        let deadline = Runner.monotonicNanos() &+ 5_000_000_000
        while phase.load(ordering: .acquiring) != 2 {
            sched_yield()
            if Runner.monotonicNanos() > deadline { break }
        }
        phase.store(3, ordering: .releasing)
        mine()
        while phase.load(ordering: .acquiring) != 4 {
            sched_yield()
            if Runner.monotonicNanos() > deadline &+ 5_000_000_000 { break }
        }
        task.withLock { $0 = nil }
        phase.store(0, ordering: .releasing)
    }

    /// Ends the partner thread.
    func stop() {
        phase.store(-1, ordering: .releasing)
        wake.signal()
    }
}
