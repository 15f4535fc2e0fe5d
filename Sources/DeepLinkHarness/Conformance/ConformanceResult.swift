/// How one strategy did on one ``ConformanceRule``: the oracle's expectation, the outcome the
/// oracle classified from the strategy's own account (``observation``), and that account.
///
/// Thread safety: a value type; `Sendable`.
public struct ConformanceResult: Sendable {
    public var rule: ConformanceRule
    public var expectation: Expectation
    /// Classified from ``observation``; never copied from ``expectation``.
    public var outcome: JourneyOutcome
    public var observation: StrategyObservation
    /// The reasons the strategy claims to tell apart (an exec child's `hello`).
    public var distinctions: StrategyObservation.Reasons

    /// A rule passes when the outcome is no violation (the same line `run` draws).
    public var passed: Bool { !outcome.isViolation }

    /// Not checked: the program answered protocol 1, which cannot carry what the rule needs (the
    /// signing keys); it neither passes nor fails.
    public var unsupported: Bool { observation.auditFinding == .unsupported }

    /// Passed, but with another reason than the oracle's, because the strategy does not claim that
    /// reason (it is judged on its routes alone there).
    public var passedOnRoutesAlone: Bool { passed && outcome != expectation.outcome }
}
