import Foundation

/// Reads a report directory written by ``ReportWriter`` back into a ``RunReport``: summary.csv,
/// outcomes.csv, histograms.csv, violations.csv and manifest.json. Every problem is a named
/// ``ReportError`` that names the file (and the column, line or field): a missing file, a CSV
/// that does not parse, a missing column, a bad number, a bad histogram, a bad manifest.
///
/// Fields not stored as such are reconstructed: the run's `journeys` and `wallNanos` are the
/// largest of its strategies'.
///
/// Thread safety: stateless.
public enum ReportReader {
    /// The whole report in `directory`.
    public static func read(_ directory: String) throws(ReportError) -> RunReport {
        let manifest = try readManifest(directory)
        let summary = try table(ReportSchema.summaryFile, in: directory)
        let outcomes = try table(ReportSchema.outcomesFile, in: directory)
        let histograms = try table(ReportSchema.histogramsFile, in: directory)
        let violations = try table(ReportSchema.violationsFile, in: directory)
        let coverage = try table(ReportSchema.coverageFile, in: directory)

        // Every column is required even when a file has no rows, so a truncated header is named.
        try checked(path(ReportSchema.summaryFile, in: directory)) { () throws(CSVError) in
            // The open-loop columns came later: reports without them read as closed loop.
            try summary.require(ReportSchema.summaryColumns.map(\.name).filter { !ArrivalReport.columns.contains($0) })
        }
        try checked(path(ReportSchema.outcomesFile, in: directory)) { () throws(CSVError) in
            try outcomes.require(ReportSchema.outcomesColumns.map(\.name))
        }
        try checked(path(ReportSchema.histogramsFile, in: directory)) { () throws(CSVError) in
            try histograms.require(ReportSchema.histogramsColumns.map(\.name))
        }
        try checked(path(ReportSchema.violationsFile, in: directory)) { () throws(CSVError) in
            try violations.require(ReportSchema.violationsColumns.map(\.name))
        }
        try checked(path(ReportSchema.coverageFile, in: directory)) { () throws(CSVError) in
            try coverage.require(ReportSchema.coverageColumns.map(\.name))
        }

        var strategies: [StrategyReport] = []
        var runID = ""
        var seed: UInt64 = 0
        var threads = 0
        var peakRSS: UInt64 = 0
        var arrivals = ArrivalReport()
        let hasArrivals = ArrivalReport.columns.allSatisfy(summary.header.contains)
        let summaryPath = path(ReportSchema.summaryFile, in: directory)
        try checked(summaryPath) { () throws(CSVError) in
            for row in summary.rows.indices {
                runID = try summary.string("run_id", row: row)
                seed = try summary.unsigned("seed", row: row)
                threads = Int(clamping: try summary.unsigned("threads", row: row))
                peakRSS = Swift.max(peakRSS, try summary.unsigned("peak_rss_bytes", row: row))
                if hasArrivals {
                    arrivals = ArrivalReport(
                        offeredPerSecond: try summary.double("offered_per_s", row: row),
                        lateStarts: try summary.unsigned("late_starts", row: row),
                        dropped: try summary.unsigned("dropped", row: row),
                        maxStartLagNanos: try summary.unsigned("max_start_lag_ns", row: row)
                    )
                }
                strategies.append(
                    StrategyReport(
                        name: try summary.string("strategy", row: row),
                        journeys: Int(clamping: try summary.unsigned("journeys", row: row)),
                        wallNanos: try summary.unsigned("wall_ns", row: row),
                        allocatedBytes: try summary.unsigned("allocated_bytes", row: row)
                    )
                )
            }
        }
        func strategyIndex(_ name: String, _ file: String, line: Int) throws(ReportError) -> Int {
            guard let index = strategies.firstIndex(where: { $0.name == name }) else {
                throw .incompatible(
                    "\(path(file, in: directory)) line \(line): strategy '\(name)' is not in summary.csv"
                )
            }
            return index
        }

        let outcomesPath = path(ReportSchema.outcomesFile, in: directory)
        for row in outcomes.rows.indices {
            var name = ""
            var key = OutcomeKey(scenarioClass: "", outcome: "")
            var count: UInt64 = 0
            try checked(outcomesPath) { () throws(CSVError) in
                name = CSVWriter.unneutralised(try outcomes.string("strategy", row: row))
                key.scenarioClass = CSVWriter.unneutralised(try outcomes.string("scenario_class", row: row))
                key.outcome = CSVWriter.unneutralised(try outcomes.string("outcome", row: row))
                count = try outcomes.unsigned("count", row: row)
            }
            let index = try strategyIndex(name, ReportSchema.outcomesFile, line: outcomes.rowLines[row])
            strategies[index].outcomeCounts[key, default: 0] &+= count
        }

        let coveragePath = path(ReportSchema.coverageFile, in: directory)
        for row in coverage.rows.indices {
            var name = ""
            var key = CoverageKey(kind: "", name: "")
            var count: UInt64 = 0
            try checked(coveragePath) { () throws(CSVError) in
                name = CSVWriter.unneutralised(try coverage.string("strategy", row: row))
                key.kind = CSVWriter.unneutralised(try coverage.string("kind", row: row))
                key.name = CSVWriter.unneutralised(try coverage.string("name", row: row))
                count = try coverage.unsigned("journeys", row: row)
            }
            let index = try strategyIndex(name, ReportSchema.coverageFile, line: coverage.rowLines[row])
            guard strategies[index].coverage.updateValue(count, forKey: key) == nil else {
                throw .incompatible(
                    "\(coveragePath) line \(coverage.rowLines[row]): '\(name)' \(key.kind) '\(key.name)' appears twice"
                )
            }
        }

        let histogramsPath = path(ReportSchema.histogramsFile, in: directory)
        for row in histograms.rows.indices {
            var name = ""
            var metric = ""
            var fields: (count: UInt64, min: UInt64, max: UInt64, buckets: String) = (0, 0, 0, "")
            try checked(histogramsPath) { () throws(CSVError) in
                name = CSVWriter.unneutralised(try histograms.string("strategy", row: row))
                metric = CSVWriter.unneutralised(try histograms.string("metric", row: row))
                fields = (
                    try histograms.unsigned("count", row: row), try histograms.unsigned("min_ns", row: row),
                    try histograms.unsigned("max_ns", row: row), try histograms.string("buckets", row: row)
                )
            }
            let line = histograms.rowLines[row]
            let index = try strategyIndex(name, ReportSchema.histogramsFile, line: line)
            do {
                let histogram = try Histogram(
                    count: fields.count,
                    min: fields.min,
                    max: fields.max,
                    encodedBuckets: fields.buckets
                )
                strategies[index].histograms[metric, default: Histogram()].merge(histogram)
            } catch {
                throw .badHistogram(path: histogramsPath, line: line, error)
            }
        }

        let violationsPath = path(ReportSchema.violationsFile, in: directory)
        for row in violations.rows.indices {
            var record = ViolationRecord(
                strategy: "",
                seed: 0,
                journey: 0,
                scenarioClass: "",
                expected: "",
                actual: "",
                trace: ""
            )
            try checked(violationsPath) { () throws(CSVError) in
                func text(_ column: String) throws(CSVError) -> String {
                    CSVWriter.unneutralised(try violations.string(column, row: row))
                }
                record = ViolationRecord(
                    strategy: try text("strategy"),
                    seed: try violations.unsigned("seed", row: row),
                    journey: try violations.unsigned("journey", row: row),
                    scenarioClass: try text("scenario_class"),
                    expected: try text("expected"),
                    actual: try text("actual"),
                    trace: try text("trace")
                )
            }
            let index = try strategyIndex(record.strategy, ReportSchema.violationsFile, line: violations.rowLines[row])
            strategies[index].violations.append(record)
        }

        return RunReport(
            runID: runID,
            seed: seed,
            journeys: strategies.map(\.journeys).max() ?? 0,
            threads: threads,
            wallNanos: strategies.map(\.wallNanos).max() ?? 0,
            peakRSSBytes: peakRSS,
            manifest: manifest,
            strategies: strategies,
            arrivals: arrivals
        )
    }

    /// manifest.json of `directory`.
    public static func readManifest(_ directory: String) throws(ReportError) -> RunManifest {
        let filePath = path(ReportSchema.manifestFile, in: directory)
        let data = try contents(of: filePath)
        do {
            return try JSONDecoder().decode(RunManifest.self, from: data)
        } catch let DecodingError.keyNotFound(key, _) {
            throw .badManifest(path: filePath, reason: "missing key '\(key.stringValue)'")
        } catch let DecodingError.typeMismatch(_, context) {
            let key = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw .badManifest(path: filePath, reason: "wrong type for '\(key)'")
        } catch {
            throw .badManifest(path: filePath, reason: "not valid JSON")
        }
    }

    /// The CSV file `name` of `directory`, parsed.
    public static func table(_ name: String, in directory: String) throws(ReportError) -> CSVTable {
        let filePath = path(name, in: directory)
        let data = try contents(of: filePath)
        do {
            return try CSVTable(parsing: [UInt8](data))
        } catch {
            throw .badCSV(path: filePath, error)
        }
    }

    /// Runs `body`, turning a ``CSVError`` into ``ReportError/badCSV(path:_:)`` for `filePath`.
    public static func checked(_ filePath: String, _ body: () throws(CSVError) -> Void) throws(ReportError) {
        do {
            try body()
        } catch {
            throw .badCSV(path: filePath, error)
        }
    }

    static func path(_ name: String, in directory: String) -> String {
        (directory as NSString).appendingPathComponent(name)
    }

    static func contents(of filePath: String) throws(ReportError) -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: filePath, isDirectory: &isDirectory), !isDirectory.boolValue
        else { throw .missingFile(path: filePath) }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: filePath))
        } catch {
            throw .cannotRead(path: filePath, reason: error.localizedDescription)
        }
    }
}
