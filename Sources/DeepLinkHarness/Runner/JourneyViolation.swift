/// One violating journey as the runner found it; the trace is rebuilt from `(seed, index)` when
/// the report is written, so workers never format strings.
///
/// Thread safety: a value type; `Sendable`.
package struct JourneyViolation: Sendable, Hashable {
    package var index: UInt64
    package var scenario: ScenarioClass
    package var expected: JourneyOutcome
    package var actual: JourneyOutcome
}
