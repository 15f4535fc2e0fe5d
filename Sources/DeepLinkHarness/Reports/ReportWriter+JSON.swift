/// summary.json: summary.csv's facts for tools that read JSON (jq, dashboards), plus the latency
/// percentiles and the verdict. Built from summary.csv's own cells, so the two files cannot
/// disagree: a numeric cell is a JSON number as written, a text cell a JSON string.
extension ReportWriter {
    /// summary.csv's columns that are the same on every row: summary.json's `run` object.
    static let runColumns: Set<String> = Set(
        ["run_id", "seed", "threads", "peak_rss_bytes"] + ArrivalReport.columns + Disturbance.columns
    )

    /// summary.json: `{"run": {…}, "strategies": [{…, "outcomes": {…}, "latency_ns": {…}}],
    /// "thresholds": […], "verdict": "PASS"}`, keys in a fixed order, two-space indentation.
    public static func summaryJSON(_ report: RunReport) -> String {
        let columns = ReportSchema.summaryColumns
        let rows = summaryRows(report)
        let outcomeNames = Dictionary(
            Outcome.summaryColumns.map { ($0.column, $0.outcome) },
            uniquingKeysWith: { first, _ in first }
        )
        func value(_ cell: String, _ column: CSVWriter.Column) -> String {
            column.kind == .numeric ? cell : JSONString.quoted(cell)
        }
        var run: [(String, String)] = []
        if let first = rows.first {
            for (index, column) in columns.enumerated() where runColumns.contains(column.name) {
                run.append((column.name, value(first[index], column)))
            }
        }
        let strategies = zip(report.strategies, rows).map { strategy, row -> String in
            var fields: [(String, String)] = []
            var outcomes: [(String, String)] = []
            for (index, column) in columns.enumerated() where !runColumns.contains(column.name) {
                if let outcome = outcomeNames[column.name] {
                    outcomes.append((outcome, row[index]))
                } else {
                    fields.append((column.name, value(row[index], column)))
                }
            }
            fields.append(("outcomes", object(outcomes, indent: 3)))
            let latency = Metric.ordered(strategy.histograms.keys).compactMap { metric -> (String, String)? in
                guard let histogram = strategy.histograms[metric] else { return nil }
                let percentiles = ReportSchema.percentiles.map { percentile in
                    ("p" + percentile, String(histogram.value(atPercentile: Double(percentile) ?? 0)))
                }
                return (metric, object([("count", String(histogram.count))] + percentiles, indent: 4))
            }
            fields.append(("latency_ns", object(latency, indent: 3)))
            return object(fields, indent: 2)
        }
        var top = [("run", object(run, indent: 1)), ("strategies", array(strategies, indent: 1))]
        if !report.thresholds.isEmpty {
            let verdict = RunVerdict(report)
            let thresholds = verdict.results.map { result in
                object(
                    [
                        ("expression", JSONString.quoted(result.threshold.expression)),
                        ("strategy", JSONString.quoted(result.threshold.strategy)),
                        ("metric", JSONString.quoted(result.threshold.metric.rawValue)),
                        ("bound", ReportSchema.decimal(result.threshold.bound, digits: 3)),
                        ("observed", result.observed.map { ReportSchema.decimal($0, digits: 0) } ?? "null"),
                        ("passed", result.passed ? "true" : "false"),
                    ],
                    indent: 2
                )
            }
            top += [
                ("thresholds", array(thresholds, indent: 1)), ("verdict", JSONString.quoted(verdict.state.rawValue)),
            ]
        }
        return object(top, indent: 0) + "\n"
    }

    /// A JSON object of already-encoded values, one member per line at `indent` levels.
    private static func object(_ members: [(String, String)], indent: Int) -> String {
        guard !members.isEmpty else { return "{}" }
        let pad = String(repeating: "  ", count: indent + 1)
        let body = members.map { pad + JSONString.quoted($0.0) + ": " + $0.1 }.joined(separator: ",\n")
        return "{\n" + body + "\n" + String(repeating: "  ", count: indent) + "}"
    }

    /// A JSON array of already-encoded values, one per line at `indent` levels.
    private static func array(_ elements: [String], indent: Int) -> String {
        guard !elements.isEmpty else { return "[]" }
        let pad = String(repeating: "  ", count: indent + 1)
        return "[\n" + elements.map { pad + $0 }.joined(separator: ",\n") + "\n"
            + String(repeating: "  ", count: indent)
            + "]"
    }
}
