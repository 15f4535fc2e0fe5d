/// One journey's outcome in one scenario class: the key of a strategy's outcome counters.
///
/// `outcome` is one of ``Outcome``'s names: `routed`, `misrouted`, `duplicated`, `premature`,
/// `lost`, `expired`, `rejected:<reason>`, `superseded`, `organic`, `notSet`, `noLink`,
/// `crashWindow`.
///
/// Thread safety: a value type.
package struct OutcomeKey: Sendable, Hashable {
    package var scenarioClass: String
    package var outcome: String

    package init(scenarioClass: String, outcome: String) {
        self.scenarioClass = scenarioClass
        self.outcome = outcome
    }
}

/// One row of `coverage.csv`: a journey feature (`kind` `feature`), a resolver decision path
/// (`kind` `path`), a schedule point of the core (`kind` `point`) or an interleaved pair of them
/// (`kind` `pair`, `a/b`), by name.
///
/// Thread safety: a value type.
package struct CoverageKey: Sendable, Hashable {
    package var kind: String
    package var name: String

    package init(kind: String, name: String) {
        self.kind = kind
        self.name = name
    }

    package static let feature = "feature"
    package static let path = "path"
    package static let point = "point"
    package static let pair = "pair"

    /// The kinds in report order, each with its names in the order the harness defines them.
    private static let orderedKinds: [(kind: String, names: [String: Int])] = [
        (feature, CoverageCounts.featureNames), (path, DecisionPaths.named.map(\.name)),
        (point, ScheduleCoverage.pointNames), (pair, ScheduleCoverage.pairNames),
    ].map { kind, names in
        (kind, Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first }))
    }

    /// Report order: features, paths, points, then pairs, each in the order the harness defines
    /// them (kinds and names it does not know last, in byte order).
    static func precedes(_ lhs: CoverageKey, _ rhs: CoverageKey) -> Bool {
        func rank(_ key: CoverageKey) -> (Int, Int) {
            guard let kindRank = orderedKinds.firstIndex(where: { $0.kind == key.kind }) else {
                return (orderedKinds.count, 0)
            }
            let names = orderedKinds[kindRank].names
            return (kindRank, names[key.name] ?? names.count)
        }
        let (left, right) = (rank(lhs), rank(rhs))
        if left != right { return left < right }
        if lhs.kind != rhs.kind { return ReportSchema.precedes(lhs.kind, rhs.kind) }
        return ReportSchema.precedes(lhs.name, rhs.name)
    }
}

/// One violating journey (any ``Outcome/violations`` outcome), with what is needed to replay
/// it: strategy, seed and journey index, plus the expected and actual outcome and the event trace.
///
/// Thread safety: a value type.
package struct ViolationRecord: Sendable, Equatable {
    package var strategy: String
    package var seed: UInt64
    package var journey: UInt64
    package var scenarioClass: String
    package var expected: String
    package var actual: String
    package var trace: String

    package init(
        strategy: String,
        seed: UInt64,
        journey: UInt64,
        scenarioClass: String,
        expected: String,
        actual: String,
        trace: String
    ) {
        self.strategy = strategy
        self.seed = seed
        self.journey = journey
        self.scenarioClass = scenarioClass
        self.expected = expected
        self.actual = actual
        self.trace = trace
    }
}

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

/// The outcome names the reports know, in summary.csv column order: ``JourneyOutcome/name``, the
/// one spelling of an outcome in every file, the terminal and the page.
///
/// Thread safety: constants and pure functions.
package enum Outcome {
    package static let routed = JourneyOutcome.routed.name
    package static let misrouted = JourneyOutcome.misrouted.name
    package static let duplicated = JourneyOutcome.duplicated.name
    package static let premature = JourneyOutcome.premature.name
    package static let lost = JourneyOutcome.lost.name
    package static let expired = JourneyOutcome.expired.name
    /// Rejections carry their reason: `rejected:<reason>`.
    package static let rejectedPrefix = "rejected"
    package static let superseded = JourneyOutcome.superseded.name
    package static let organic = JourneyOutcome.organic.name
    package static let notSet = JourneyOutcome.notSet.name
    package static let noLink = JourneyOutcome.noLink.name
    package static let crashWindow = JourneyOutcome.crashWindow.name
    package static let stale = JourneyOutcome.stale.name
    package static let unsafe = JourneyOutcome.unsafe.name
    package static let late = JourneyOutcome.late.name
    package static let misjudged = JourneyOutcome.misjudged.name
    package static let hung = JourneyOutcome.hung.name
    package static let trapped = JourneyOutcome.trapped.name

    /// The outcomes that count as violations: ``JourneyOutcome/violations``, by name.
    package static let violations = JourneyOutcome.violations.map(\.name)

    /// `rejected:<reason>`.
    package static func rejected(_ reason: String) -> String { "\(rejectedPrefix):\(reason)" }

    /// Whether `outcome` is a violation (one of ``violations``).
    package static func isViolation(_ outcome: String) -> Bool { violations.contains(outcome) }

    /// The summary.csv column of each known outcome, in column order: the outcome's name (as in
    /// outcomes.csv, the terminal and the page) in snake case, as every CSV column is named
    /// (`crashWindow` → `crash_window`).
    package static let summaryColumns: [(outcome: String, column: String)] = [
        routed, misrouted, duplicated, premature, lost, expired, rejectedPrefix, superseded, organic, notSet, noLink,
        crashWindow, stale, unsafe, late, misjudged, hung, trapped,
    ].map { ($0, snakeCase($0)) }

    /// `crashWindow` → `crash_window`.
    static func snakeCase(_ name: String) -> String {
        var column = ""
        for character in name {
            if character.isUppercase { column += "_" + character.lowercased() } else { column.append(character) }
        }
        return column
    }

    /// The summary.csv column an outcome counts under: its own, `rejected` for `rejected:<reason>`,
    /// or `unclassified`.
    package static func summaryColumn(for outcome: String) -> String {
        if outcome == rejectedPrefix || outcome.hasPrefix(rejectedPrefix + ":") { return "rejected" }
        for entry in summaryColumns where entry.outcome == outcome { return entry.column }
        return "unclassified"
    }
}

/// Latency metric names (histogram keys), in report order.
///
/// Thread safety: constants and pure functions.
package enum Metric {
    package static let parse = "parse"
    package static let validate = "validate"
    package static let enqueue = "enqueue"
    package static let gateOpenToRoute = "gate_open_to_route"
    package static let journey = "journey"
    /// Open loop only: the journey's latency from its intended start (start lag + `journey`).
    /// Not in ``all`` (the metrics every run records); ``ordered(_:)`` puts it after them.
    package static let journeyCorrected = "journey_corrected"
    /// `journey` split by ``Journey/racing``: racing journeys only, and the others. Absent for a
    /// strategy without journeys of that kind (and in reports written before the split).
    package static let journeyRacing = "journey_racing"
    package static let journeyNonRacing = "journey_non_racing"

    package static let all = [parse, validate, enqueue, gateOpenToRoute, journey]

    /// `names` in report order: the known metrics first in ``all``'s order, then others sorted.
    package static func ordered(_ names: some Sequence<String>) -> [String] {
        let set = Set(names)
        let known = all.filter { set.contains($0) }
        let others = set.subtracting(all).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return known + others
    }
}

// Reports compare by value: a report read back from its directory equals the one written, and a
// merge of shards equals the unsharded run (tests rely on both). Synthesised, so declared here.
extension StrategyReport: Equatable {}

extension RunReport: Equatable {}
