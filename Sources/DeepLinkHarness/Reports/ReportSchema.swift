/// The files and columns of a report directory, in their stable order. `Reports/README.md`
/// documents each of them; ``ReportWriter`` writes them and ``ReportReader`` reads them back.
///
/// Thread safety: constants and pure functions.
public enum ReportSchema {
    public static let summaryFile = "summary.csv"
    public static let latencyFile = "latency.csv"
    public static let outcomesFile = "outcomes.csv"
    public static let violationsFile = "violations.csv"
    public static let histogramsFile = "histograms.csv"
    public static let manifestFile = "manifest.json"
    public static let coverageFile = "coverage.csv"
    public static let thresholdsFile = "thresholds.csv"
    public static let summaryJSONFile = "summary.json"
    public static let latencyLogFile = "latency.hlog"

    /// Percentiles written to latency.csv, as they appear in the `percentile` column.
    public static let percentiles = ["0", "50", "90", "99", "99.9", "99.99", "100"]

    /// At most this many violating journeys per strategy are written to violations.csv.
    public static let maxViolationRowsPerStrategy = 1000

    public static let summaryColumns: [CSVWriter.Column] =
        [
            .init("run_id", .text), .init("strategy", .text), .init("seed", .numeric),
            .init("journeys", .numeric), .init("threads", .numeric), .init("wall_ns", .numeric),
            .init("journeys_per_s", .numeric),
        ] + Outcome.summaryColumns.map { .init($0.column, .numeric) }
        + [
            .init("unclassified", .numeric), .init("violations", .numeric), .init("allocated_bytes", .numeric),
            .init("bytes_per_journey", .numeric),
        ] + JourneyCostReport.columns.map { .init($0, .numeric) } + [.init("peak_rss_bytes", .numeric)]
        + ArrivalReport.columns.map { .init($0, .numeric) } + Disturbance.columns.map { .init($0, .numeric) }

    /// summary.csv's numeric columns that hold decimals; every other numeric column is a count
    /// (a non-negative integer).
    public static let summaryDecimalColumns = Set([
        "journeys_per_s", "bytes_per_journey", "offered_per_s", "other_runnable",
    ])
    .union(JourneyCostReport.decimalColumns)

    public static let latencyColumns: [CSVWriter.Column] = [
        .init("strategy", .text), .init("metric", .text), .init("percentile", .numeric),
        .init("value_ns", .numeric), .init("count", .numeric),
    ]

    public static let outcomesColumns: [CSVWriter.Column] = [
        .init("strategy", .text), .init("scenario_class", .text), .init("outcome", .text), .init("count", .numeric),
    ]

    public static let violationsColumns: [CSVWriter.Column] = [
        .init("strategy", .text), .init("seed", .numeric), .init("journey", .numeric),
        .init("scenario_class", .text), .init("expected", .text), .init("actual", .text), .init("trace", .text),
    ]

    public static let coverageColumns: [CSVWriter.Column] = [
        .init("strategy", .text), .init("kind", .text), .init("name", .text), .init("journeys", .numeric),
    ]

    public static let thresholdsColumns: [CSVWriter.Column] = [
        .init("expression", .text), .init("strategy", .text), .init("metric", .text), .init("bound", .numeric),
        .init("observed", .numeric), .init("passed", .numeric),
    ]

    public static let histogramsColumns: [CSVWriter.Column] = [
        .init("strategy", .text), .init("metric", .text), .init("count", .numeric), .init("min_ns", .numeric),
        .init("max_ns", .numeric), .init("buckets", .text),
    ]

    /// `value` with exactly `digits` decimals, rounded half up, without locale (`12.35`).
    public static func decimal(_ value: Double, digits: Int) -> String {
        guard value.isFinite else { return "0" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let negative = value < 0
        let scaled = (abs(value) * scale).rounded()
        // Beyond 64-bit integers (only from doctored input): Swift's shortest round-trip form.
        guard scaled < 9e18 else { return "\(value)" }
        let units = UInt64(scaled)
        let whole = units / UInt64(scale)
        var text = (negative && units != 0 ? "-" : "") + String(whole)
        if digits > 0 {
            let fraction = String(units % UInt64(scale))
            text += "." + String(repeating: "0", count: digits - fraction.count) + fraction
        }
        return text
    }

    /// Byte-wise (locale-independent) string order, for stable sorting.
    static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }
}
