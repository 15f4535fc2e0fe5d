/// What one worker thread hands back: its tallies, its open-loop latencies and arrivals, and the
/// journeys the oracle left undecided.
struct WorkerResult: Sendable {
    var tallies: [StrategyTally]
    /// Per strategy: start lag + the strategy's time (open loop; empty histograms in closed loop).
    var corrected: [Histogram]
    var arrivals: ArrivalCounts
    var undecided: UInt64
}
