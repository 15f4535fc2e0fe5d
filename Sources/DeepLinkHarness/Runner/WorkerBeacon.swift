import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// What one worker is running now: the journey, the strategy (its index in the run) and when it
/// started (an ``OperationClock`` reading; 0 between journeys). The watchdog reads it to find a
/// stuck journey; in a supervised run (``TrapSupervisor``) a fatal signal's handler reads the
/// beacon of the thread that trapped and writes which journey it was, so the supervisor can report
/// it and run the rest.
///
/// Thread safety: atomics; the worker writes, the watchdog and the signal handler read.
final class WorkerBeacon: Sendable {
    let startReading = Atomic<UInt64>(0)
    let journey = Atomic<UInt64>(0)
    let strategy = Atomic<Int>(0)

    /// Makes `self` the beacon of the calling thread (and of helper threads that adopt it).
    func register() {
        guard TrapHandler.installed else { return }
        pthread_setspecific(TrapHandler.beaconKey, Unmanaged.passUnretained(self).toOpaque())
    }
}
