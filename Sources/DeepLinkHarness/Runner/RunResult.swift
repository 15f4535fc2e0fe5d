/// A finished run's numbers before they become report files.
///
/// Thread safety: a value type; `Sendable`.
package struct RunResult: Sendable {
    package var configuration: RunConfiguration
    package var tallies: [StrategyTally]
    package var wallNanos: UInt64
    /// Journeys the oracle left undecided (a generator defect; expected 0).
    package var undecidedJourneys: UInt64
    /// An open-loop run's arrivals and latencies from intended start; nil for a closed-loop run.
    package var openLoop: OpenLoopResult? = nil
    /// Set when the watchdog stopped the run: which strategy hung on which journey. The tallies
    /// then hold only what finished (the hung worker's journeys are not counted) plus that hung
    /// journey.
    package var hung: HungJourney? = nil
    /// What else the machine did during the run, and whether its timings are trustworthy.
    package var disturbance = Disturbance()
}
