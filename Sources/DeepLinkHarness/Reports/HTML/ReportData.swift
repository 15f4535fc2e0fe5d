/// What report.html and summary.md show, read from one output directory of `run`, `merge`, `gate`
/// or `capacity` (see ``ReportData/load(directory:baseline:)``). Every part but the manifest is
/// optional, so old runs, merged runs, gate and capacity directories all make a report.
///
/// Outcome names are taken from the data (outcomes.csv), never from a fixed list, so outcomes
/// added later appear as they are; an outcome is a violation when ``JourneyOutcome`` says so or
/// when violations.csv records it as a violating journey's `actual` outcome.
///
/// Thread safety: a value type.
public struct ReportData: Sendable {
    /// One strategy's row of summary.csv.
    public struct Strategy: Sendable, Equatable {
        public var name: String
        public var journeys: Double
        public var wallNanos: Double
        public var journeysPerSecond: Double
        public var violations: Double
        public var allocatedBytes: Double
        public var bytesPerJourney: Double
    }

    /// One row of outcomes.csv.
    public struct OutcomeCount: Sendable, Equatable {
        public var strategy: String
        public var scenarioClass: String
        public var outcome: String
        public var count: Double
    }

    /// A run's data: summary, outcomes, histograms, violations.
    public struct Run: Sendable {
        public var runID = ""
        public var seed = ""
        public var threads = 0.0
        public var peakRSSBytes = 0.0
        public var offeredPerSecond = 0.0
        public var lateStarts = 0.0
        public var dropped = 0.0
        public var maxStartLagNanos = 0.0
        public var strategies: [Strategy] = []
        public var outcomes: [OutcomeCount] = []
        /// Metric names in report order (``Metric/ordered(_:)``).
        public var metrics: [String] = []
        /// histograms.csv by strategy, then metric.
        public var histograms: [String: [String: Histogram]] = [:]
        /// latency.csv by strategy, then metric: (percentile, value_ns) in file order; used when a
        /// histogram is absent.
        public var latency: [String: [String: [(percentile: Double, value: Double)]]] = [:]
        public var violations: [ViolationRecord] = []
        /// Outcome names that are correctness violations.
        public var violationOutcomes: Set<String> = []
        /// The run's thresholds judged (thresholds.csv); nil when it has none (merged, older).
        public var verdict: RunVerdict?

        /// The wall time of the run: its slowest strategy's.
        public var wallNanos: Double { strategies.map(\.wallNanos).max() ?? 0 }
        /// Journeys per strategy (the largest, as ``ReportReader`` reconstructs it).
        public var journeys: Double { strategies.map(\.journeys).max() ?? 0 }
    }

    /// One regression check: from gate.csv, or computed against `--baseline`.
    public struct Check: Sendable, Equatable {
        public var strategy: String
        public var metric: String
        public var kind: String
        public var baseline: Double
        public var current: Double
        /// `(current − baseline) / baseline × 100`; nil when the baseline is 0.
        public var changePercent: Double?
        public var verdict: String
        public var detail: String
        /// The 95 % confidence interval of the change in percent (the sign of ``changePercent``),
        /// when the verdict came from a bootstrap.
        public var interval: (low: Double, high: Double)?

        public static func == (lhs: Check, rhs: Check) -> Bool {
            lhs.strategy == rhs.strategy && lhs.metric == rhs.metric && lhs.kind == rhs.kind
                && lhs.baseline == rhs.baseline && lhs.current == rhs.current && lhs.verdict == rhs.verdict
                && lhs.detail == rhs.detail
        }
    }

    /// One row of capacity.csv.
    public struct CapacityStep: Sendable, Equatable {
        public var threads: Int
        public var offeredPerSecond: Double
        public var achievedPerSecond: Double
        public var p50Nanos: Double
        public var p99Nanos: Double
        public var p999Nanos: Double
        public var dropped: Double
        public var bytesPerJourney: Double
        public var meetsObjective: Bool
        /// The step's `disturbed` column.
        public var disturbed = false
    }

    /// The directory the report describes.
    public var directory: String
    public var manifest: RunManifest?
    public var run: Run?
    /// Where the run sections come from when not from `directory` itself (a gate's repetition).
    public var runSource: String?
    /// The regression checks and where they came from (`gate.csv` or the baseline's path).
    public var checks: [Check] = []
    public var checksSource: String?
    public var capacity: [CapacityStep] = []
    /// capacity's latency objective (p99, ns) and stated peak, from its command line.
    public var capacityObjectiveNanos = 1_000_000.0
    public var capacityPeakPerSecond: Double?
    /// coverage.csv as read (columns vary with the harness version), when present.
    public var coverage: CSVTable?

    /// Why to doubt the timings (``DisturbanceNotice``): the manifest's disturbance (a run's, a
    /// merged run's, or a capacity sweep's disturbed steps merged); nil when the machine was quiet
    /// or did not say.
    public var disturbanceNotice: String? {
        let disturbed = capacity.filter(\.disturbed).count
        return DisturbanceNotice.text(
            manifest?.disturbance,
            steps: capacity.isEmpty ? nil : (disturbed, capacity.count)
        )
    }

    /// The checks' verdict as the gate words it (``RegressionGate/verdict(of:doubts:)``): never a
    /// bare PASS when no timing check judged.
    public var gateVerdict: String {
        RegressionGate.verdict(
            of: checks.map {
                (RegressionGate.Kind(rawValue: $0.kind) ?? .hard, RegressionGate.Verdict(rawValue: $0.verdict) ?? .fail)
            }
        )
    }
}
