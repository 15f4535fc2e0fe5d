import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The involuntary context switches that the harness's own racing threads cause, so that the
/// disturbance readings leave them out.
///
/// A racing journey runs on two or three threads at once (a ``ControlledRace`` hands a token
/// between them; a ``RacePartner`` spins beside its owner), on a machine with as many cores as
/// workers: the run preempts itself, tens of thousands of times a second, on an idle machine. Those
/// switches say nothing about the machine, yet they marked every default run `disturbed` (and so
/// every timing verdict of the gate inconclusive). The racing code books the calling thread's
/// involuntary switches (`getrusage(RUSAGE_THREAD)`) over its part of each race; what the
/// disturbance readings count is the process's switches minus these. A preemption by another
/// process during a race is left out with them: the steal time and the other runnable load still
/// see such a neighbour.
///
/// Thread safety: an atomic counter; any thread books, any thread reads.
package enum RaceSwitches {
    private static let booked = Atomic<UInt64>(0)

    /// `RUSAGE_THREAD` of `<sys/resource.h>`: Linux-only (`_GNU_SOURCE`), so Glibc's module does not
    /// export the name.
    private static let rusageThread: Int32 = 1

    /// The switches booked so far by this process's racing threads.
    package static var total: UInt64 { booked.load(ordering: .relaxed) }

    /// The calling thread's involuntary switches so far (0 where the kernel cannot say).
    package static func ofCallingThread() -> UInt64 {
        var usage = rusage()
        guard getrusage(rusageThread, &usage) == 0 else { return 0 }
        return UInt64(max(0, usage.ru_nivcsw))
    }

    /// Books the calling thread's switches since `mark` (a reading of ``ofCallingThread()``) and
    /// moves `mark` to now.
    package static func book(since mark: inout UInt64) {
        let now = ofCallingThread()
        if now > mark { booked.add(now - mark, ordering: .relaxed) }
        mark = now
    }
}
