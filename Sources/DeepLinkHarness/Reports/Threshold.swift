/// A pass/fail condition on one strategy's result, k6-style: `core.p99<2ms`,
/// `core.journeys_per_s>100000`, `exec:mine.violations==0` (``parse(_:)``). `run` judges its
/// report against its thresholds (``evaluate(_:)``), prints the verdict and exits 1 when one fails;
/// thresholds.csv records each with what was observed.
///
/// Thread safety: a value type; `Sendable`.
package struct Threshold: Sendable, Hashable {
    /// What a threshold measures, by its name in the expression.
    package enum Metric: String, Sendable, CaseIterable {
        /// Journeys with a violation outcome (a count).
        case violations
        /// The strategy's journeys per second (summary.csv's `journeys_per_s`).
        case journeysPerSecond = "journeys_per_s"
        /// Whole-journey latency percentiles (latency.csv's `journey`), in ns.
        case p50, p99, p999
        /// The same over racing journeys only (`journey_racing`).
        case racingP50 = "racing_p50"
        case racingP99 = "racing_p99"
        /// The same over the other journeys (`journey_non_racing`).
        case nonRacingP50 = "non_racing_p50"
        case nonRacingP99 = "non_racing_p99"

        /// The histogram and percentile a latency metric reads; nil for the others.
        var latency: (histogram: String, percentile: Double)? {
            switch self {
            case .violations, .journeysPerSecond: nil
            case .p50: (DeepLinkHarness.Metric.journey, 50)
            case .p99: (DeepLinkHarness.Metric.journey, 99)
            case .p999: (DeepLinkHarness.Metric.journey, 99.9)
            case .racingP50: (DeepLinkHarness.Metric.journeyRacing, 50)
            case .racingP99: (DeepLinkHarness.Metric.journeyRacing, 99)
            case .nonRacingP50: (DeepLinkHarness.Metric.journeyNonRacing, 50)
            case .nonRacingP99: (DeepLinkHarness.Metric.journeyNonRacing, 99)
            }
        }
    }

    /// How the observed value is compared with the bound.
    package enum Comparison: String, Sendable, CaseIterable {
        // Two-character operators first: parsing takes the first that matches.
        case lessOrEqual = "<="
        case greaterOrEqual = ">="
        case equal = "=="
        case less = "<"
        case greater = ">"

        func holds(_ observed: Double, _ bound: Double) -> Bool {
            switch self {
            case .lessOrEqual: observed <= bound
            case .greaterOrEqual: observed >= bound
            case .equal: observed == bound
            case .less: observed < bound
            case .greater: observed > bound
            }
        }
    }

    /// The strategy's report name (`core`, `naive`, `exec:mine`).
    package var strategy: String
    package var metric: Metric
    package var comparison: Comparison
    /// The bound in the metric's unit: a count, journeys per second, or nanoseconds.
    package var bound: Double
    /// The expression as given (spaces removed), as thresholds.csv and the verdict show it.
    package var expression: String

    /// The default threshold of a strategy under test: no violations.
    package static func noViolations(_ strategy: String) -> Threshold {
        Threshold(
            strategy: strategy,
            metric: .violations,
            comparison: .equal,
            bound: 0,
            expression: "\(strategy).\(Metric.violations.rawValue)\(Comparison.equal.rawValue)0"
        )
    }

    /// This threshold judged against `report`: the observed value (nil when the strategy or its
    /// histogram is absent, e.g. no racing journeys: then it fails, as nothing shows it holds).
    package func evaluate(_ report: RunReport) -> ThresholdResult {
        guard let strategy = report.strategies.first(where: { $0.name == self.strategy }) else {
            return ThresholdResult(threshold: self, observed: nil)
        }
        let observed: Double?
        switch metric.latency {
        case nil:
            observed =
                metric == .violations ? Double(strategy.violationCount) : strategy.journeysPerSecond.rounded()
        case let (histogram, percentile)?:
            observed = strategy.histograms[histogram].flatMap {
                $0.count == 0 ? nil : Double($0.value(atPercentile: percentile))
            }
        }
        return ThresholdResult(threshold: self, observed: observed)
    }
}
