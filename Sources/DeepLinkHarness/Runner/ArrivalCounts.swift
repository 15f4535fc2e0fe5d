/// What became of the arrivals of one thread (or, merged, a whole open-loop run).
///
/// Thread safety: a value type.
package struct ArrivalCounts: Sendable, Equatable {
    /// Arrivals that started (on time or late); each ran its journey.
    package var started: UInt64 = 0
    /// Started arrivals that started more than ``OpenLoopSchedule/lateToleranceNanos`` late.
    package var lateStarts: UInt64 = 0
    /// Arrivals dropped because their lag exceeded the run's maximum lag; never run.
    package var dropped: UInt64 = 0
    /// The largest start lag of a started arrival, ns.
    package var maxStartLagNanos: UInt64 = 0

    package init() {}

    /// Adds `other`'s counts into these (the maximum lag is the larger one).
    package mutating func merge(_ other: ArrivalCounts) {
        started &+= other.started
        lateStarts &+= other.lateStarts
        dropped &+= other.dropped
        maxStartLagNanos = max(maxStartLagNanos, other.maxStartLagNanos)
    }
}
