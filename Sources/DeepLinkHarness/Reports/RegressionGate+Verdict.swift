extension RegressionGate {
    /// The gate's verdict word with what it rests on, for its text output, summary.md and the
    /// page: `FAIL` when a check failed, else `PASS`, qualified whenever a timing check did not
    /// judge, so that a gate that judged no timing never reads as a bare PASS (inconclusive checks
    /// never fail the gate: exit 0). `doubts` are the short causes of the inconclusive timing
    /// checks (``Doubt/summary``), when known.
    ///
    /// - `PASS`: every timing check judged (and passed);
    /// - `PASS (hard checks only; no timing checks)`: `--hard-only`, or nothing to time;
    /// - `PASS (hard checks only; N timing checks inconclusive: …)`: none judged;
    /// - `PASS (K of N timing checks judged; M inconclusive: …)`: some judged.
    public static func verdict(of checks: [(kind: Kind, verdict: Verdict)], doubts: [String] = []) -> String {
        if checks.contains(where: { $0.verdict == .fail }) { return "FAIL" }
        let timing = checks.filter { $0.kind == .timing }
        let inconclusive = timing.filter { $0.verdict == .inconclusive }.count
        let causes = doubts.isEmpty ? "" : ": " + doubts.joined(separator: "; ")
        if timing.isEmpty { return "PASS (hard checks only; no timing checks)" }
        if inconclusive == 0 { return "PASS" }
        if inconclusive == timing.count {
            return "PASS (hard checks only; \(inconclusive) timing check\(inconclusive == 1 ? "" : "s") "
                + "inconclusive\(causes))"
        }
        return "PASS (\(timing.count - inconclusive) of \(timing.count) timing checks judged; \(inconclusive) "
            + "inconclusive\(causes))"
    }

    /// ``verdict(of:doubts:)`` of evaluated checks, with their doubts' causes.
    public static func verdict(of checks: [Check]) -> String {
        var causes: [String] = []
        for doubt in checks.compactMap(\.doubt) where !causes.contains(doubt.summary) { causes.append(doubt.summary) }
        return verdict(of: checks.map { ($0.kind, $0.verdict) }, doubts: causes)
    }
}
