/// One threshold and what the run showed.
///
/// Thread safety: a value type; `Sendable`.
package struct ThresholdResult: Sendable, Equatable {
    package var threshold: Threshold
    /// The observed value in the metric's unit; nil when the run has none (no such histogram).
    package var observed: Double?

    /// Whether the threshold holds: an observed value that satisfies the comparison.
    package var passed: Bool { observed.map { threshold.comparison.holds($0, threshold.bound) } ?? false }
}
