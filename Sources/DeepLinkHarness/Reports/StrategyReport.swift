/// What one strategy did over a run: journeys, wall time, outcome counters per scenario class,
/// latency histograms per metric, bytes allocated, and the first violating journeys.
///
/// `histograms` is keyed by metric name (``Metric``): `parse`, `validate`, `enqueue`,
/// `gate_open_to_route`, `journey` (others are allowed and reported too).
///
/// Thread safety: a value type.
package struct StrategyReport: Sendable {
    package var name: String
    package var journeys: Int
    package var wallNanos: UInt64
    package var outcomeCounts: [OutcomeKey: UInt64]
    package var histograms: [String: Histogram]
    package var allocatedBytes: UInt64
    package var violations: [ViolationRecord]
    /// Journeys per feature and per decision path (`coverage.csv`).
    package var coverage: [CoverageKey: UInt64]
    /// Strategy and harness time and bytes, racing journeys apart.
    package var costs: JourneyCostReport

    package init(
        name: String,
        journeys: Int = 0,
        wallNanos: UInt64 = 0,
        outcomeCounts: [OutcomeKey: UInt64] = [:],
        histograms: [String: Histogram] = [:],
        allocatedBytes: UInt64 = 0,
        violations: [ViolationRecord] = [],
        coverage: [CoverageKey: UInt64] = [:],
        costs: JourneyCostReport = JourneyCostReport()
    ) {
        self.name = name
        self.journeys = journeys
        self.wallNanos = wallNanos
        self.outcomeCounts = outcomeCounts
        self.histograms = histograms
        self.allocatedBytes = allocatedBytes
        self.violations = violations
        self.coverage = coverage
        self.costs = costs
    }

    /// Journeys per outcome summed over scenario classes, keyed by summary column
    /// (``Outcome/summaryColumn(for:)``): `rejected:<reason>` counts under `rejected`; an outcome
    /// the report does not know counts under `unclassified`.
    package var outcomeTotals: [String: UInt64] {
        var totals: [String: UInt64] = [:]
        for (key, value) in outcomeCounts {
            totals[Outcome.summaryColumn(for: key.outcome), default: 0] &+= value
        }
        return totals
    }

    /// Journeys with a violation outcome (``Outcome/violations``).
    package var violationCount: UInt64 {
        let totals = outcomeTotals
        return Outcome.violations.reduce(0) { $0 &+ totals[Outcome.summaryColumn(for: $1), default: 0] }
    }

    /// Journeys per second over this strategy's wall time (0 when no time was measured).
    package var journeysPerSecond: Double {
        wallNanos == 0 ? 0 : Double(journeys) * 1e9 / Double(wallNanos)
    }

    /// Bytes allocated per journey (0 with no journeys).
    package var bytesPerJourney: Double {
        journeys == 0 ? 0 : Double(allocatedBytes) / Double(journeys)
    }
}

// Reports compare by value: a report read back from its directory equals the one written, and a
// merge of shards equals the unsharded run (tests rely on both). Synthesised, so declared here.
extension StrategyReport: Equatable {}
