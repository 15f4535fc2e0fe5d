/// A whole run: its identity and parameters, resource use, environment, and one
/// ``StrategyReport`` per strategy in the order they are reported.
///
/// Thread safety: a value type.
package struct RunReport: Sendable {
    package var runID: String
    package var seed: UInt64
    package var journeys: Int
    package var threads: Int
    package var wallNanos: UInt64
    package var peakRSSBytes: UInt64
    package var manifest: RunManifest
    package var strategies: [StrategyReport]
    /// Open-loop arrivals (all zero for a closed-loop run).
    package var arrivals: ArrivalReport
    /// The thresholds the run is judged by (``RunVerdict``; thresholds.csv): `run`'s defaults and
    /// `--threshold`s. Empty for a merged report and for reports written before thresholds.
    package var thresholds: [Threshold] = []

    package init(
        runID: String,
        seed: UInt64,
        journeys: Int,
        threads: Int,
        wallNanos: UInt64,
        peakRSSBytes: UInt64,
        manifest: RunManifest,
        strategies: [StrategyReport],
        arrivals: ArrivalReport = ArrivalReport()
    ) {
        self.runID = runID
        self.seed = seed
        self.journeys = journeys
        self.threads = threads
        self.wallNanos = wallNanos
        self.peakRSSBytes = peakRSSBytes
        self.manifest = manifest
        self.strategies = strategies
        self.arrivals = arrivals
    }
}

extension RunReport: Equatable {}
