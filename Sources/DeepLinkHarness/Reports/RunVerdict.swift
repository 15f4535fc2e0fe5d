/// A run's verdict: its thresholds judged against its report. The strategies under test (`core`
/// and every `exec:` strategy) are held to no violations by default; the peers (`naive`,
/// `fingerprint`, `clipboard`) are there to be caught, so they are reported, not judged, unless a
/// `--threshold` names them.
///
/// Thread safety: a value type; `Sendable`.
public struct RunVerdict: Sendable, Equatable {
    /// What the verdict says, in order of precedence.
    public enum State: String, Sendable {
        /// Every threshold held.
        case pass = "PASS"
        /// At least one threshold failed: `run` exits 1.
        case fail = "FAIL"
        /// No threshold: no strategy under test and none given. Not a pass: nothing was judged.
        case nothingJudged = "NONE"
    }

    public var results: [ThresholdResult]
    /// The report's peers that no threshold names (reported, not judged), in report order.
    public var unjudgedPeers: [String]

    /// Whether `strategy` (a report name) is under test: `core` or an `exec:` strategy.
    public static func isUnderTest(_ strategy: String) -> Bool {
        strategy == StrategyKind.core.rawValue || strategy.hasPrefix(StrategyKind.execPrefix)
    }

    /// The default thresholds of a run of `strategies` (one ``Threshold/noViolations(_:)`` per
    /// strategy under test), then `extra` without repeating one of them.
    public static func thresholds(strategies: [String], extra: [Threshold]) -> [Threshold] {
        var all = strategies.filter(isUnderTest).map(Threshold.noViolations)
        for threshold in extra where !all.contains(threshold) { all.append(threshold) }
        return all
    }

    /// `report`'s thresholds (``RunReport/thresholds``) judged against it.
    public init(_ report: RunReport) {
        results = report.thresholds.map { $0.evaluate(report) }
        let judged = Set(report.thresholds.map(\.strategy))
        unjudgedPeers = report.strategies.map(\.name).filter { !Self.isUnderTest($0) && !judged.contains($0) }
    }

    public var state: State {
        if results.isEmpty { return .nothingJudged }
        return results.allSatisfy(\.passed) ? .pass : .fail
    }

    /// `run`'s exit status for this verdict: 1 when a threshold failed, else 0.
    public var exitStatus: Int32 { state == .fail ? 1 : 0 }

    /// The one line `run` ends with, e.g. `verdict: PASS — 0 violations in core (under test);
    /// peers reported, not judged` or `verdict: FAIL — core: 131,691 violations (threshold
    /// core.violations==0)`.
    public var line: String {
        let peerNote = unjudgedPeers.isEmpty ? "" : "; peers reported, not judged"
        switch state {
        case .nothingJudged:
            return "verdict: NONE — nothing judged: no strategy under test (core, exec:NAME) and no --threshold"
                + peerNote
        case .fail:
            let failures = results.filter { !$0.passed }.map { result in
                "\(result.threshold.strategy): \(Self.describe(result)) (threshold \(result.threshold.expression))"
            }
            return "verdict: FAIL — " + failures.joined(separator: "; ")
        case .pass:
            let clean = results.map(\.threshold).filter {
                Self.isUnderTest($0.strategy) && $0 == .noViolations($0.strategy)
            }.map(\.strategy)
            var parts: [String] = []
            if !clean.isEmpty { parts.append("0 violations in " + clean.joined(separator: ", ") + " (under test)") }
            let others = results.count - clean.count
            if others > 0 {
                parts.append("\(others) \(clean.isEmpty ? "" : "more ")\(others == 1 ? "threshold" : "thresholds") met")
            }
            return "verdict: PASS — " + parts.joined(separator: ", ") + peerNote
        }
    }

    /// What was observed, in words: `131,691 violations`, `p99 3.2 ms`, `no racing journeys`.
    static func describe(_ result: ThresholdResult) -> String {
        let metric = result.threshold.metric
        guard result.observed != nil else {
            switch metric {
            case .racingP50, .racingP99: return "no racing journeys"
            case .nonRacingP50, .nonRacingP99: return "no non-racing journeys"
            default: return "no \(metric.rawValue) measured"
            }
        }
        switch metric {
        case .violations: return result.shown + " violations"
        case .journeysPerSecond: return result.shown + " journeys/s"
        default: return "\(metric.rawValue) " + result.shown
        }
    }
}

extension ThresholdResult {
    /// The observed value for a person: `131,691`, `3.2 ms`, or `-` when there is none.
    public var shown: String {
        guard let observed else { return "-" }
        return threshold.metric.latency == nil ? ReportFormat.grouped(observed) : ReportFormat.nanos(observed)
    }
}
