/// Busy-waiting with a time bound, for the racing threads' hand-offs: a thread whose turn comes a
/// few hundred nanoseconds later takes it without a context switch (parking on a futex and being
/// woken costs two, microseconds each on a shared VM), and one whose turn is not coming soon (the
/// other thread was preempted, or no race follows) stops burning the core and parks.
///
/// Thread safety: stateless.
enum BoundedSpin {
    /// Checks of the condition between clock reads (a few hundred nanoseconds).
    static let checksPerClockRead = 64

    /// Spins while `condition` holds, for about `nanos` at most. Returns whether it stopped
    /// holding (false: the time ran out first).
    @inline(__always)
    static func spin(forNanos nanos: UInt64, while condition: () -> Bool) -> Bool {
        var deadline: UInt64 = 0
        while true {
            for _ in 0..<checksPerClockRead where !condition() { return true }
            let now = Runner.monotonicNanos()
            if deadline == 0 {
                deadline = now &+ nanos
            } else if now >= deadline {
                return false
            }
        }
    }

    /// Spins while `condition` holds and `progress` (a counter another thread bumps as it works)
    /// moved within the last `stallNanos`: a thread spins while the one it waits for runs, and
    /// parks soon after that one stops (preempted, or blocked). Returns whether `condition` stopped
    /// holding.
    @inline(__always)
    static func spin(
        whileProgressing progress: () -> UInt64,
        stallNanos: UInt64,
        while condition: () -> Bool
    ) -> Bool {
        var last = progress()
        var deadline: UInt64 = 0
        while true {
            for _ in 0..<checksPerClockRead where !condition() { return true }
            let now = Runner.monotonicNanos()
            let current = progress()
            if deadline == 0 || current != last {
                deadline = now &+ stallNanos
                last = current
            } else if now >= deadline {
                return false
            }
        }
    }
}
