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
