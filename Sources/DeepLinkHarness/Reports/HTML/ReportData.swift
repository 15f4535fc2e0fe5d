/// What report.html and summary.md show, read from one output directory of `run`, `merge`, `gate`
/// or `capacity` (see ``ReportData/load(directory:baseline:)``). Every part but the manifest is
/// optional, so old runs, merged runs, gate and capacity directories all make a report.
///
/// Outcome names are taken from the data (outcomes.csv), never from a fixed list, so outcomes
/// added later appear as they are; an outcome is a violation when ``JourneyOutcome`` says so or
/// when violations.csv records it as a violating journey's `actual` outcome.
///
/// Thread safety: a value type.
package struct ReportData: Sendable {
    /// One strategy's row of summary.csv.
    package struct Strategy: Sendable, Equatable {
        package var name: String
        package var journeys: Double
        package var wallNanos: Double
        package var journeysPerSecond: Double
        package var violations: Double
        package var allocatedBytes: Double
        package var bytesPerJourney: Double
    }

    /// One row of outcomes.csv.
    package struct OutcomeCount: Sendable, Equatable {
        package var strategy: String
        package var scenarioClass: String
        package var outcome: String
        package var count: Double
    }

    /// A run's data: summary, outcomes, histograms, violations.
    package struct Run: Sendable {
        package var runID = ""
        package var seed = ""
        package var threads = 0.0
        package var peakRSSBytes = 0.0
        package var offeredPerSecond = 0.0
        package var lateStarts = 0.0
        package var dropped = 0.0
        package var maxStartLagNanos = 0.0
        package var strategies: [Strategy] = []
        package var outcomes: [OutcomeCount] = []
        /// Metric names in report order (``Metric/ordered(_:)``).
        package var metrics: [String] = []
        /// histograms.csv by strategy, then metric.
        package var histograms: [String: [String: Histogram]] = [:]
        /// latency.csv by strategy, then metric: (percentile, value_ns) in file order; used when a
        /// histogram is absent.
        package var latency: [String: [String: [(percentile: Double, value: Double)]]] = [:]
        package var violations: [ViolationRecord] = []
        /// Outcome names that are correctness violations.
        package var violationOutcomes: Set<String> = []
        /// The run's thresholds judged (thresholds.csv); nil when it has none (merged, older).
        package var verdict: RunVerdict?

        /// The wall time of the run: its slowest strategy's.
        package var wallNanos: Double { strategies.map(\.wallNanos).max() ?? 0 }
        /// Journeys per strategy (the largest, as ``ReportReader`` reconstructs it).
        package var journeys: Double { strategies.map(\.journeys).max() ?? 0 }
    }

    /// One regression check: from gate.csv, or computed against `--baseline`.
    package struct Check: Sendable, Equatable {
        package var strategy: String
        package var metric: String
        package var kind: String
        package var baseline: Double
        package var current: Double
        /// `(current − baseline) / baseline × 100`; nil when the baseline is 0.
        package var changePercent: Double?
        package var verdict: String
        package var detail: String
        /// The 95 % confidence interval of the change in percent (the sign of ``changePercent``),
        /// when the verdict came from a bootstrap.
        package var interval: (low: Double, high: Double)?

        package static func == (lhs: Check, rhs: Check) -> Bool {
            lhs.strategy == rhs.strategy && lhs.metric == rhs.metric && lhs.kind == rhs.kind
                && lhs.baseline == rhs.baseline && lhs.current == rhs.current && lhs.verdict == rhs.verdict
                && lhs.detail == rhs.detail
        }
    }

    /// One row of capacity.csv.
    package struct CapacityStep: Sendable, Equatable {
        package var threads: Int
        package var offeredPerSecond: Double
        package var achievedPerSecond: Double
        package var p50Nanos: Double
        package var p99Nanos: Double
        package var p999Nanos: Double
        package var dropped: Double
        package var bytesPerJourney: Double
        package var meetsObjective: Bool
        /// The step's `disturbed` column.
        package var disturbed = false
    }

    /// The directory the report describes.
    package var directory: String
    package var manifest: RunManifest?
    package var run: Run?
    /// Where the run sections come from when not from `directory` itself (a gate's repetition).
    package var runSource: String?
    /// The regression checks and where they came from (`gate.csv` or the baseline's path).
    package var checks: [Check] = []
    package var checksSource: String?
    package var capacity: [CapacityStep] = []
    /// capacity's latency objective (p99, ns) and stated peak, from its command line.
    package var capacityObjectiveNanos = 1_000_000.0
    package var capacityPeakPerSecond: Double?
    /// coverage.csv as read (columns vary with the harness version), when present.
    package var coverage: CSVTable?

    /// Why to doubt the timings (``DisturbanceNotice``): the manifest's disturbance (a run's, a
    /// merged run's, or a capacity sweep's disturbed steps merged); nil when the machine was quiet
    /// or did not say.
    package var disturbanceNotice: String? {
        let disturbed = capacity.filter(\.disturbed).count
        return DisturbanceNotice.text(
            manifest?.disturbance,
            steps: capacity.isEmpty ? nil : (disturbed, capacity.count)
        )
    }

    /// The checks' verdict as the gate words it (``RegressionGate/verdict(of:doubts:)``): never a
    /// bare PASS when no timing check judged.
    package var gateVerdict: String {
        RegressionGate.verdict(
            of: checks.map {
                (RegressionGate.Kind(rawValue: $0.kind) ?? .hard, RegressionGate.Verdict(rawValue: $0.verdict) ?? .fail)
            }
        )
    }
}
