/// The sentence that tells a reader to doubt a measurement's timings: printed by `run` and
/// `capacity` on the terminal and at the top of report.html and summary.md whenever the machine
/// disturbed the measurement (``Disturbance/disturbed``), with what was measured against which
/// threshold (``Disturbance/reasons``), e.g.
/// `disturbed: 3.59 other runnable threads on average, 0 cores free (threshold +0.5) — timings
/// below may be off by more than the usual noise`.
///
/// Thread safety: stateless.
public enum DisturbanceNotice {
    /// What a disturbance means for the numbers it comes with.
    public static let consequence = "timings below may be off by more than the usual noise"
    /// Reasons listed before the rest are counted (a capacity sweep gathers one per step).
    public static let reasonsShown = 4

    /// The notice, or nil when `disturbance` is absent or quiet. `steps` (disturbed, all) names
    /// how many of several measurements (a capacity sweep's steps) were disturbed.
    public static func text(_ disturbance: Disturbance?, steps: (disturbed: Int, all: Int)? = nil) -> String? {
        guard let disturbance, disturbance.disturbed else { return nil }
        var reasons = Array(disturbance.reasons.prefix(reasonsShown))
        if disturbance.reasons.count > reasonsShown {
            reasons.append("and \(disturbance.reasons.count - reasonsShown) more reasons")
        }
        let scope = steps.map { "\($0.disturbed) of \($0.all) steps: " } ?? ""
        let measured = reasons.isEmpty ? "marked disturbed" : reasons.joined(separator: "; ")
        return "disturbed: \(scope)\(measured) — \(consequence)"
    }

    /// ``text(_:steps:)`` for a terminal: folded at spaces into lines of at most `width` columns
    /// (a word longer than that keeps a line of its own), continuation lines indented by two.
    public static func terminalText(_ disturbance: Disturbance?, width: Int = 100) -> String? {
        guard let text = text(disturbance) else { return nil }
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            let indent = lines.isEmpty ? "" : "  "
            if line.isEmpty {
                line = indent + word
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = "  " + word
            }
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}
