extension ReportPage {
    /// The run's verdict (thresholds.csv): the line `run` ended with, and each threshold with what
    /// was observed.
    static func verdict(_ verdict: RunVerdict, into page: inout Page) {
        page.section("verdict", "Verdict")
        let state = verdict.state == .fail ? "fail" : verdict.state == .pass ? "pass" : "inconclusive"
        page.raw("<p><span class=\"verdict verdict-\(state)\">\(Markup.escape(verdict.state.rawValue))</span> ")
        page.raw(Markup.escape(String(verdict.line.drop(while: { $0 != "—" }).dropFirst(2))) + "</p>\n")
        page.paragraph(
            "Always judged: no violations in core and every exec: strategy. The peers are there to be caught: "
                + "reported, not judged, unless a --threshold names them.",
            className: "guide"
        )
        page.table(
            header: ["threshold", "observed", "verdict"],
            rows: verdict.results.map { [$0.threshold.expression, $0.shown, $0.passed ? "pass" : "fail"] },
            numeric: [1],
            alarming: { row, _ in !verdict.results[row].passed },
            id: "thresholds"
        )
        page.endSection()
    }
}
