/// A journey on which a strategy (by its index in the run's strategies) killed the process.
///
/// Thread safety: a value type; `Sendable`.
package struct TrappedJourney: Sendable, Hashable {
    package var strategyIndex: Int
    package var journey: UInt64
}
