/// A journey the watchdog gave up on.
///
/// Thread safety: a value type; `Sendable`.
package struct HungJourney: Sendable, Equatable {
    package var strategy: StrategyKind
    package var index: UInt64
    package var runningNanos: UInt64
}
