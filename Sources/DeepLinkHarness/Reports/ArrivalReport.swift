/// An open-loop run's arrivals as reported in summary.csv (`offered_per_s`, `late_starts`,
/// `dropped`, `max_start_lag_ns`; the same on every row). All zero for a closed-loop run.
///
/// Merged shards: the offered rates add up (shards run side by side), counts add up, the largest
/// lag is the largest shard's.
///
/// Thread safety: a value type.
package struct ArrivalReport: Sendable, Equatable {
    /// The arrival rate the run offered, per second (0: closed loop).
    package var offeredPerSecond: Double
    /// Arrivals that started more than ``OpenLoopSchedule/lateToleranceNanos`` after their
    /// intended start.
    package var lateStarts: UInt64
    /// Arrivals dropped, never run, because their wait exceeded the run's maximum lag.
    package var dropped: UInt64
    /// The largest start lag of an arrival that ran, ns.
    package var maxStartLagNanos: UInt64

    package init(
        offeredPerSecond: Double = 0,
        lateStarts: UInt64 = 0,
        dropped: UInt64 = 0,
        maxStartLagNanos: UInt64 = 0
    ) {
        self.offeredPerSecond = offeredPerSecond
        self.lateStarts = lateStarts
        self.dropped = dropped
        self.maxStartLagNanos = maxStartLagNanos
    }

    /// These arrivals and a shard's together (see the type's documentation); nil when a count
    /// would pass 2^64 − 1 (only doctored input gets there).
    package func merging(_ other: ArrivalReport) -> ArrivalReport? {
        let (late, lateOverflow) = lateStarts.addingReportingOverflow(other.lateStarts)
        let (drops, dropOverflow) = dropped.addingReportingOverflow(other.dropped)
        guard !lateOverflow, !dropOverflow else { return nil }
        return ArrivalReport(
            offeredPerSecond: offeredPerSecond + other.offeredPerSecond,
            lateStarts: late,
            dropped: drops,
            maxStartLagNanos: Swift.max(maxStartLagNanos, other.maxStartLagNanos)
        )
    }

    /// summary.csv's arrival columns, in order (appended after `peak_rss_bytes`).
    package static let columns = ["offered_per_s", "late_starts", "dropped", "max_start_lag_ns"]

    /// The values of ``columns`` as written (`offered_per_s` with three decimals).
    package var fields: [String] {
        [
            ReportSchema.decimal(offeredPerSecond, digits: 3), String(lateStarts), String(dropped),
            String(maxStartLagNanos),
        ]
    }
}
