import Foundation

/// Why a threshold expression was refused; ``message`` says what to write instead.
///
/// Thread safety: a value type; `Sendable`.
public enum ThresholdError: Error, Equatable, Sendable {
    /// No comparison operator.
    case noComparison(String)
    /// Nothing before the metric, or no `.` between strategy and metric.
    case noStrategy(String)
    case unknownMetric(expression: String, metric: String)
    /// A bound that is not a number of the metric's kind (a latency without a unit, a negative or
    /// fractional count, a unit on a count).
    case badBound(expression: String, bound: String, expected: String)

    public var message: String {
        switch self {
        case .noComparison(let text):
            "'\(text)' has no comparison: write STRATEGY.METRIC OP VALUE, OP one of "
                + Threshold.Comparison.allCases.map(\.rawValue).joined(separator: " ") + " (e.g. core.p99<2ms)"
        case .noStrategy(let text):
            "'\(text)' names no strategy: write STRATEGY.METRIC OP VALUE (e.g. core.violations==0, exec:mine.p99<1ms)"
        case .unknownMetric(let text, let metric):
            "'\(text)': unknown metric '\(metric)'; use one of "
                + Threshold.Metric.allCases.map(\.rawValue).joined(separator: ", ")
        case .badBound(let text, let bound, let expected):
            "'\(text)': bound '\(bound)' is not \(expected)"
        }
    }
}

extension Threshold {
    /// Latency units a bound may carry, with their length in nanoseconds.
    static let units: [(name: String, nanos: Double)] = [
        ("ns", 1), ("us", 1e3), ("µs", 1e3), ("ms", 1e6), ("s", 1e9),
    ]

    /// Parses `STRATEGY.METRIC OP VALUE` (spaces ignored): the strategy is everything before the
    /// last `.` of the left side (exec names may hold dots), the metric a ``Metric`` name, OP a
    /// ``Comparison``; a latency's VALUE carries a unit (`ns`, `us`/`µs`, `ms`, `s`), a count is
    /// a non-negative integer and a rate a non-negative number, both without a unit.
    public static func parse(_ text: String) throws(ThresholdError) -> Threshold {
        let expression = String(text.unicodeScalars.filter { $0 != " " && $0 != "\t" })
        guard
            let (comparison, operatorRange) = Comparison.allCases.lazy.compactMap({ comparison in
                expression.range(of: comparison.rawValue).map { (comparison, $0) }
            }).first
        else { throw .noComparison(text) }
        let left = expression[..<operatorRange.lowerBound]
        let right = String(expression[operatorRange.upperBound...])
        guard let dot = left.lastIndex(of: "."), dot != left.startIndex else { throw .noStrategy(text) }
        let metricName = String(left[left.index(after: dot)...])
        guard let metric = Metric(rawValue: metricName) else {
            throw .unknownMetric(expression: text, metric: metricName)
        }
        let bound: Double
        if metric.latency != nil {
            bound = try latencyBound(right, expression: text)
        } else {
            guard let value = plainNumber(right) else {
                throw .badBound(
                    expression: text,
                    bound: right,
                    expected: metric == .violations
                        ? "a count (a non-negative integer, no unit)"
                        : "a rate in journeys per second (a non-negative number, no unit)"
                )
            }
            if metric == .violations, value.rounded() != value {
                throw .badBound(expression: text, bound: right, expected: "a count (a non-negative integer, no unit)")
            }
            bound = value
        }
        return Threshold(
            strategy: String(left[..<dot]),
            metric: metric,
            comparison: comparison,
            bound: bound,
            expression: expression
        )
    }

    /// A latency bound with its unit, in nanoseconds.
    private static func latencyBound(_ text: String, expression: String) throws(ThresholdError) -> Double {
        let expected = "a latency with a unit: a non-negative number followed by ns, us, µs, ms or s (e.g. 2ms)"
        // Longest unit first, so that `ms` is not read as `s`.
        for unit in units.sorted(by: { $0.name.count > $1.name.count }) where text.hasSuffix(unit.name) {
            let number = String(text.dropLast(unit.name.count))
            guard let value = plainNumber(number) else {
                throw .badBound(expression: expression, bound: text, expected: expected)
            }
            return value * unit.nanos
        }
        throw .badBound(expression: expression, bound: text, expected: expected)
    }

    /// `text` as a plain decimal (ASCII digits with at most one `.` between digits; no sign,
    /// exponent or hex), or nil.
    static func plainNumber(_ text: String) -> Double? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count),
            parts.allSatisfy({ !$0.isEmpty && $0.unicodeScalars.allSatisfy { ("0"..."9").contains($0) } })
        else { return nil }
        return Double(text).flatMap { $0.isFinite ? $0 : nil }
    }
}
