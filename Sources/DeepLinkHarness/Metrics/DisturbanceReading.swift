/// One reading of what else the machine is doing, taken by a ``DisturbanceSource``: cumulative
/// counters (CPU steal time, this process's involuntary context switches) and the instantaneous
/// runnable load, all others' and ours.
///
/// Thread safety: a value type.
package struct DisturbanceReading: Sendable, Equatable {
    /// CPU time the hypervisor gave to other guests, all CPUs together, since boot
    /// (`/proc/stat`'s `steal`), in nanoseconds.
    package var stealNanos: UInt64
    /// Times this process's threads were preempted (`getrusage(RUSAGE_SELF)`'s `ru_nivcsw`).
    package var involuntarySwitches: UInt64
    /// Runnable threads on the whole machine now (`/proc/loadavg`'s running count).
    package var runnable: Int
    /// This process's runnable threads now (state `R` in `/proc/self/task/*/stat`): subtracted
    /// from ``runnable`` to get the others'.
    package var ownRunnable: Int

    package init(stealNanos: UInt64, involuntarySwitches: UInt64, runnable: Int, ownRunnable: Int) {
        self.stealNanos = stealNanos
        self.involuntarySwitches = involuntarySwitches
        self.runnable = runnable
        self.ownRunnable = ownRunnable
    }

    /// Runnable threads that are not this process's (never negative).
    package var otherRunnable: Int { max(0, runnable - ownRunnable) }
}
