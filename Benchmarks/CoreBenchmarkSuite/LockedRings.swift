import DeepLinkCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The obvious alternative to a lock-free queue: a bounded ring of the same `PendingLink` records
/// guarded by `Synchronization.Mutex`. The peer of the `queue-*` benchmarks.
///
/// Thread safety: all methods may be called from any thread.
final class MutexRing: @unchecked Sendable {
    private struct Indices {
        var head = 0
        var count = 0
    }

    private let capacity: Int
    private let slots: UnsafeMutablePointer<PendingLink>
    private let indices = Mutex(Indices())

    init(capacity: Int, filler: PendingLink) {
        self.capacity = capacity
        self.slots = .allocate(capacity: capacity)
        slots.initialize(repeating: filler, count: capacity)
    }

    deinit {
        slots.deinitialize(count: capacity)
        slots.deallocate()
    }

    func tryEnqueue(_ link: PendingLink) -> Bool {
        indices.withLock { state in
            guard state.count < capacity else { return false }
            slots[(state.head + state.count) & (capacity - 1)] = link
            state.count += 1
            return true
        }
    }

    func tryDequeue() -> PendingLink? {
        indices.withLock { state in
            guard state.count > 0 else { return nil }
            let link = slots[state.head]
            state.head = (state.head + 1) & (capacity - 1)
            state.count -= 1
            return link
        }
    }
}

/// The same ring guarded by a plain `pthread_mutex_t` (what swift-nio's lock does on Linux): an
/// honest peer when `Mutex`'s priority-inheritance futex is slow under contention.
///
/// Thread safety: all methods may be called from any thread.
final class PthreadRing: @unchecked Sendable {
    private let capacity: Int
    private let slots: UnsafeMutablePointer<PendingLink>
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var head = 0
    private var count = 0

    init(capacity: Int, filler: PendingLink) {
        self.capacity = capacity
        self.slots = .allocate(capacity: capacity)
        slots.initialize(repeating: filler, count: capacity)
        self.mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        slots.deinitialize(count: capacity)
        slots.deallocate()
    }

    func tryEnqueue(_ link: PendingLink) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        guard count < capacity else { return false }
        slots[(head + count) & (capacity - 1)] = link
        count += 1
        return true
    }

    func tryDequeue() -> PendingLink? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        guard count > 0 else { return nil }
        let link = slots[head]
        head = (head + 1) & (capacity - 1)
        count -= 1
        return link
    }
}
