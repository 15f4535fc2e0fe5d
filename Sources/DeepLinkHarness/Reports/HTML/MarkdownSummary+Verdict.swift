extension MarkdownSummary {
    /// The run's verdict and its thresholds (thresholds.csv) as Markdown.
    static func verdict(_ verdict: RunVerdict) -> String {
        let mark = verdict.state == .fail ? " ❌" : verdict.state == .pass ? " ✅" : ""
        var text = "\n### Verdict: \(verdict.state.rawValue)\(mark)\n\n"
        text += escape(verdict.line) + "\n\n| threshold | observed | verdict |\n|---|--:|---|\n"
        for result in verdict.results {
            text += "| \(escape(result.threshold.expression)) | \(escape(result.shown)) | "
            text += (result.passed ? "pass" : "**fail** ❌") + " |\n"
        }
        return text
    }
}
