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
