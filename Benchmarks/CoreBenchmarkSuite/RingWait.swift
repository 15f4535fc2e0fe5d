import DeepLinkHarness
import Synchronization

/// How a thread of the two-thread queue benchmarks waits for the other: it retries for a while,
/// then parks until the other thread made progress. Every ring waits through this one policy, on
/// two pinned CPUs (``CPUPinning``), so `queue-2threads` times the rings and not their waits.
///
/// Retrying flat out is the fastest hand-over between two running cores (a `sched_yield` or a
/// `pause` between attempts only delays it); parking is what a thread must do when the other one
/// does not run (preempted by another process), or it would burn the time slice the other needs.
///
/// No wake is lost: a parking thread counts itself in `parked` before its last attempt, which it
/// makes holding the lock until it sleeps; a waking thread fences after its operation and
/// broadcasts under the same lock whenever it sees a count. Either the last attempt sees the
/// operation, or the waking thread sees the count.
///
/// Thread safety: ``retry(_:)`` from one thread (the one that waits), ``wake()`` from the other.
final class RingWait: @unchecked Sendable {
    /// How long a waiter retries before it parks: longer than a parked thread takes to wake on an
    /// idle core (tens of microseconds here), so two running threads hand over without parking,
    /// and far shorter than a time slice, so a waiter whose partner was preempted soon parks.
    static let spinNanos: UInt64 = 50_000
    /// Attempts between two clock reads.
    static let attemptsPerClockRead = 64

    private let parked = Atomic<Int>(0)
    private let lock = RaceLock()

    /// Calls `attempt` until it returns `true`: retrying for ``spinNanos``, then parked until the
    /// other thread's next ``wake()``.
    @inline(__always)
    func retry(_ attempt: () -> Bool) {
        if attempt() { return }
        let deadline = MonotonicClock.nanoseconds() &+ Self.spinNanos
        repeat {
            for _ in 0..<Self.attemptsPerClockRead where attempt() { return }
        } while MonotonicClock.nanoseconds() < deadline
        park(attempt)
    }

    @inline(never)
    private func park(_ attempt: () -> Bool) {
        parked.wrappingAdd(1, ordering: .sequentiallyConsistent)
        lock.acquire(spinningFor: 0)
        while !attempt() { lock.wait(for: .changed) }
        lock.release()
        parked.wrappingSubtract(1, ordering: .sequentiallyConsistent)
    }

    /// Tells a parked waiter that the other side made progress (after every operation).
    @inline(__always)
    func wake() {
        atomicMemoryFence(ordering: .sequentiallyConsistent)
        guard parked.load(ordering: .relaxed) > 0 else { return }
        lock.acquire(spinningFor: 0)
        lock.broadcast(.changed)
        lock.release()
    }
}
