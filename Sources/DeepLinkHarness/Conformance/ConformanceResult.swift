/// How one strategy did on one ``ConformanceRule``: the oracle's expectation, the outcome the
/// oracle classified from the strategy's own account (``observation``), and that account.
///
/// Thread safety: a value type; `Sendable`.
package struct ConformanceResult: Sendable {
    package var rule: ConformanceRule
    package var expectation: Expectation
    /// Classified from ``observation``; never copied from ``expectation``.
    package var outcome: JourneyOutcome
    package var observation: StrategyObservation
    /// The reasons the strategy claims to tell apart (an exec child's `hello`).
    package var distinctions: StrategyObservation.Reasons

    /// A rule passes when the outcome is no violation (the same line `run` draws).
    package var passed: Bool { !outcome.isViolation }

    /// Not checked: the program answered protocol 1, which cannot carry what the rule needs (the
    /// signing keys); it neither passes nor fails.
    package var unsupported: Bool { observation.auditFinding == .unsupported }

    /// Passed, but with another reason than the oracle's, because the strategy does not claim that
    /// reason (it is judged on its routes alone there).
    package var passedOnRoutesAlone: Bool { passed && outcome != expectation.outcome }
}
