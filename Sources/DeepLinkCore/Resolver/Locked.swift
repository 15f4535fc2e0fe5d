// The C library: glibc (Linux), Bionic (Android, Swift SDK for Android), Darwin (Apple).
#if canImport(Glibc)
import Glibc
#elseif canImport(Android)
import Android
#elseif canImport(Darwin)
import Darwin
#endif

/// A value guarded by a `pthread_mutex_t`, for the resolver's and the in-memory store's small
/// critical sections.
///
/// Why not `Synchronization.Mutex`: on Linux its lock lives inside the Synchronization library
/// (futex and atomics compiled without sanitizer instrumentation), so ThreadSanitizer sees no
/// happens-before edge between two critical sections and reports every guarded access as a race.
/// `pthread_mutex_lock` is intercepted by ThreadSanitizer, so the suites can run clean under it.
///
/// The mutex and the value live in allocations made by `init` (the mutex must not move once
/// initialised; the value sits behind a pointer so that `withLock` needs no dynamic exclusivity
/// check of a class property: the lock already makes the access exclusive). The pointers never
/// leave this type.
///
/// `package`: the harness guards the state its observers and race partners share with the same
/// lock, so that the sanitizer runs see its critical sections too.
///
/// Thread safety: `withLock` may be called from any thread; it is not reentrant (calling it again
/// from inside `body` deadlocks). Only used with `Sendable` values.
///
/// - Complexity: `withLock` is one uncontended lock/unlock pair; it allocates nothing.
package final class Locked<Value: ~Copyable>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let value: UnsafeMutablePointer<Value>

    package init(_ value: consuming Value) {
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
        self.value = UnsafeMutablePointer<Value>.allocate(capacity: 1)
        self.value.initialize(to: value)
    }

    deinit {
        value.deinitialize(count: 1)
        value.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    ///
    /// `Result` is copyable on purpose: a `~Copyable` result kept callers in other modules from
    /// specialising this method, and the unspecialised call looked up the value type's generic
    /// metadata on every lock (a generic harness peer spent most of its journey there).
    @inline(__always)
    package func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        // Not `withLock(_Unscheduled(), body)`: wherever this method is not inlined, delegating
        // would add a call to every lock.
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }

    /// ``withLock(_:)`` whose acquire and release go through `points`: schedule points for the
    /// resolver's lock under a controlled scheduler (Docs/Scheduling.md), plain
    /// `pthread_mutex_lock` / `pthread_mutex_unlock` with ``_Unscheduled``.
    @inline(__always)
    package func withLock<Points: _LockingSchedulePoints, Result, Failure: Error>(
        _ points: Points,
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        points.lock(mutex)
        defer { points.unlock(mutex) }
        return try body(&value.pointee)
    }
}
