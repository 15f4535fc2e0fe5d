#if canImport(Glibc)
import Glibc
#endif

/// The lock of a ``ControlledRace`` on OS threads, with the two conditions its threads wait on (and
/// of the queue benchmarks' two threads, `RingWait`).
///
/// Not the core's `Locked`: a thread waiting for its turn waits on a condition, which needs the
/// mutex itself, and `Locked` keeps its mutex to itself. A pthread mutex and conditions, like
/// `Locked`'s, so that ThreadSanitizer sees the race's critical sections.
///
/// Thread safety: ``acquire()``, ``release()``, ``wait(for:)`` and ``broadcast(_:)`` may be
/// called from any thread; `wait` with the lock held.
package struct RaceLock: ~Copyable {
    /// What a waiting thread waits for.
    package enum Condition {
        /// Something in the race changed (the token moved, a thread finished).
        case changed
        /// A race that needs the partner threads started, or the race is stopping.
        case nextRace
    }

    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let changed: UnsafeMutablePointer<pthread_cond_t>
    private let nextRace: UnsafeMutablePointer<pthread_cond_t>

    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        changed = .allocate(capacity: 1)
        changed.initialize(to: pthread_cond_t())
        pthread_cond_init(changed, nil)
        nextRace = .allocate(capacity: 1)
        nextRace.initialize(to: pthread_cond_t())
        pthread_cond_init(nextRace, nil)
    }

    deinit {
        pthread_cond_destroy(changed)
        changed.deallocate()
        pthread_cond_destroy(nextRace)
        nextRace.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Locks, spinning on a try-lock for `spinNanos` before it parks: the other logical thread
    /// holds the lock only for a moment (a step's bookkeeping), and a plain lock would park at
    /// once.
    package func acquire(spinningFor spinNanos: UInt64) {
        guard pthread_mutex_trylock(mutex) != 0 else { return }
        if !BoundedSpin.spin(forNanos: spinNanos, while: { pthread_mutex_trylock(mutex) != 0 }) {
            pthread_mutex_lock(mutex)
        }
    }

    package func release() { pthread_mutex_unlock(mutex) }

    /// With the lock held: releases it until `condition` is broadcast (or spuriously), then
    /// takes it again.
    package func wait(for condition: Condition) {
        pthread_cond_wait(pointer(condition), mutex)
    }

    /// Wakes every thread waiting for `condition`.
    package func broadcast(_ condition: Condition) {
        pthread_cond_broadcast(pointer(condition))
    }

    private func pointer(_ condition: Condition) -> UnsafeMutablePointer<pthread_cond_t> {
        switch condition {
        case .changed: changed
        case .nextRace: nextRace
        }
    }
}
