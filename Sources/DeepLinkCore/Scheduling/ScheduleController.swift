// The C library: glibc (Linux), Bionic (Android), Darwin (Apple).
#if canImport(Glibc)
package import Glibc
#elseif canImport(Android)
package import Android
#elseif canImport(Darwin)
package import Darwin
#endif

/// What the core calls at its ``SchedulePoint``s once a controller is installed with
/// ``ScheduleHook/install(_:)``: the harness's controlled scheduler.
///
/// A controller must let threads it does not control through untouched (pass-through calls of
/// `pthread_mutex_lock` and `pthread_mutex_unlock`, no waiting): the hook is process-wide.
///
/// `package`: not part of the public API.
///
/// Thread safety: called from any thread at once.
package protocol ScheduleController: AnyObject, Sendable {
    /// The calling thread reached `point`; the controller may run other threads before returning.
    func reach(_ point: SchedulePoint)
    /// Acquires `mutex` for the calling thread (a controlled thread must not block on it while it
    /// holds the scheduler's token: try-lock, and let others run until the holder releases it).
    func lock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>)
    /// Releases `mutex`, which the calling thread holds.
    func unlock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>)
    /// Whether the calling thread runs with `fault` planted.
    func plants(_ fault: ConcurrencyFault) -> Bool
}
