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

/// What an open-loop run adds to a ``RunResult``: the arrivals' fate and each strategy's journey
/// latency measured from the intended start.
///
/// Thread safety: a value type; `Sendable`.
package struct OpenLoopResult: Sendable {
    package var parameters: OpenLoopParameters
    /// Started, late, dropped arrivals and the largest start lag, over all threads.
    package var arrivals: ArrivalCounts
    /// Per strategy (in the configuration's order): start lag + the strategy's own time, for every
    /// started arrival. The uncorrected time (service alone) is the tally's `journeyNanos`; the
    /// harness's time around it is the tally's `harnessNanos`.
    package var correctedJourneyNanos: [Histogram]

    package init(parameters: OpenLoopParameters, arrivals: ArrivalCounts, correctedJourneyNanos: [Histogram]) {
        self.parameters = parameters
        self.arrivals = arrivals
        self.correctedJourneyNanos = correctedJourneyNanos
    }
}
