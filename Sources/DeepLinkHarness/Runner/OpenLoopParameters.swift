/// The arrival rate and backlog bound of an open-loop run (`deeplink-bench run --rate R
/// [--max-lag-ns N]`).
///
/// Thread safety: a value type; `Sendable`.
package struct OpenLoopParameters: Sendable, Equatable {
    /// Journeys arriving per second, all worker threads together (each thread gets `1/threads`).
    package var ratePerSecond: Double
    /// An arrival still waiting this long after its intended start is dropped (see
    /// ``OpenLoopSchedule``).
    package var maxLagNanos: UInt64

    /// The default bound on an arrival's wait: 1 s.
    package static let defaultMaxLagNanos: UInt64 = 1_000_000_000

    package init(ratePerSecond: Double, maxLagNanos: UInt64 = Self.defaultMaxLagNanos) {
        self.ratePerSecond = ratePerSecond
        self.maxLagNanos = maxLagNanos
    }
}
