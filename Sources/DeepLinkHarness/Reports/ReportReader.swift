import Foundation

/// Reads a report directory written by ``ReportWriter`` back into a ``RunReport``, refusing
/// anything the writer would not have written:
///
/// - the directory must be whole (``SealedDirectory``): manifest.json lists every report file
///   with its size and SHA-256, and every file matches;
/// - manifest.json names the run (``RunIdentity``), and summary.csv agrees with it (run id, seed,
///   strategies in order, at most the journeys the run covers);
/// - every file parses, has every column, counts are non-negative integers below 2^64 and other
///   numbers finite; one summary row per strategy (at least one), each outcome, coverage,
///   histogram and violation row at most once;
/// - each strategy's outcomes add up to its journeys, its `journey` histogram holds one value per
///   timed journey (journeys less `trapped` and `hung`), violations.csv lists no more violations
///   than the outcome counts hold, each of the run's seed and inside its journey ranges;
/// - every file equals what the writer writes for the report read (so summary.csv's derived
///   columns, latency.csv's percentiles and every "same on every row" column are checked).
///
/// Every problem is a named ``ReportError`` naming the file (and line and column where there is
/// one).
///
/// Thread safety: stateless.
public enum ReportReader {
    /// The files every run report directory lists in its manifest.json.
    public static let runFiles = [
        ReportSchema.summaryFile, ReportSchema.latencyFile, ReportSchema.outcomesFile, ReportSchema.violationsFile,
        ReportSchema.histogramsFile, ReportSchema.coverageFile,
    ]

    /// The files a run writes after ``runFiles`` (in this order), which reports written before
    /// them lack: read and checked when listed, never required. A merged report has no
    /// thresholds.csv.
    public static let newerRunFiles = [
        ReportSchema.thresholdsFile, ReportSchema.summaryJSONFile, ReportSchema.latencyLogFile,
    ]

    /// The whole report in `directory`, verified.
    public static func read(_ directory: String) throws(ReportError) -> RunReport {
        let sealed = try SealedDirectory.open(directory, requiring: runFiles)
        let manifestPath = path(ReportSchema.manifestFile, in: directory)
        guard let identity = sealed.manifest.run else {
            throw .badManifest(
                path: manifestPath,
                reason: "no 'run' object naming the run (written before reports named their run); run it again"
            )
        }
        try checkIdentity(identity, manifest: sealed.manifest, path: manifestPath)
        var reader = RunReader(sealed: sealed, identity: identity)
        let report = try reader.read()
        try checkCanonical(report, sealed: sealed)
        return report
    }

    /// manifest.json of `directory`, after verifying the directory against it
    /// (``SealedDirectory/open(_:requiring:)``).
    public static func readManifest(_ directory: String) throws(ReportError) -> RunManifest {
        try SealedDirectory.open(directory, requiring: []).manifest
    }

    /// The CSV file `name` of `directory`, parsed (not verified: for files outside a report's
    /// seal, such as gate.csv).
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

    /// The directory holding `path` ("." for a bare name, "/" at the root), trailing slashes
    /// ignored. Written out rather than `NSString.deletingLastPathComponent`, which traps on a
    /// one-character relative path such as `m` in swift-corelibs-foundation 6.3.1
    /// (`merge --out m` crashed).
    public static func parentDirectory(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        var parent = trimmed[..<slash]
        while parent.hasSuffix("/") { parent.removeLast() }
        return parent.isEmpty ? "/" : String(parent)
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

/// One reading of one sealed run directory: parses each file and checks each rule as it goes.
///
/// Thread safety: a value type used by one thread.
struct RunReader {
    let sealed: SealedDirectory
    let identity: RunIdentity
    var strategies: [StrategyReport] = []

    init(sealed: SealedDirectory, identity: RunIdentity) {
        self.sealed = sealed
        self.identity = identity
    }

    func filePath(_ name: String) -> String { ReportReader.path(name, in: sealed.path) }

    func inconsistent(_ name: String, line: Int? = nil, _ reason: String) -> ReportError {
        .inconsistent(path: filePath(name), reason: (line.map { "line \($0): " } ?? "") + reason)
    }

    /// A parsed, column-checked table of the sealed file `name`.
    func table(_ name: String, columns: [CSVWriter.Column]) throws(ReportError) -> CSVTable {
        let table = try sealed.table(name)
        try ReportReader.checked(filePath(name)) { () throws(CSVError) in try table.require(columns.map(\.name)) }
        return table
    }

    func strategyIndex(_ name: String, _ file: String, line: Int) throws(ReportError) -> Int {
        guard let index = strategies.firstIndex(where: { $0.name == name }) else {
            throw inconsistent(file, line: line, "strategy '\(name)' is not in summary.csv")
        }
        return index
    }

    mutating func read() throws(ReportError) -> RunReport {
        let header = try readSummary()
        try readOutcomes()
        try readCoverage()
        try readHistograms()
        try readViolations()
        try checkStrategies()
        var report = RunReport(
            runID: identity.runID,
            seed: identity.seed,
            journeys: strategies.map(\.journeys).max() ?? 0,
            threads: header.threads,
            wallNanos: strategies.map(\.wallNanos).max() ?? 0,
            peakRSSBytes: header.peakRSS,
            manifest: sealed.manifest,
            strategies: strategies,
            arrivals: header.arrivals
        )
        report.thresholds = try readThresholds()
        return report
    }

    /// thresholds.csv's expressions, when the directory has one (a run's; not a merged report's,
    /// nor one written before thresholds). The observed values and verdicts are the writer's to
    /// derive: the canonical check holds them to the report's other files.
    func readThresholds() throws(ReportError) -> [Threshold] {
        let file = ReportSchema.thresholdsFile
        guard sealed.contents[file] != nil else { return [] }
        let table = try table(file, columns: ReportSchema.thresholdsColumns)
        var thresholds: [Threshold] = []
        for row in table.rows.indices {
            var expression = ""
            try ReportReader.checked(filePath(file)) { () throws(CSVError) in
                expression = CSVWriter.unneutralised(try table.string("expression", row: row))
            }
            let threshold: Threshold
            do {
                threshold = try Threshold.parse(expression)
            } catch {
                throw inconsistent(file, line: table.rowLines[row], error.message)
            }
            guard strategies.contains(where: { $0.name == threshold.strategy }) else {
                throw inconsistent(
                    file,
                    line: table.rowLines[row],
                    "'\(expression)' names strategy '\(threshold.strategy)', which is not in summary.csv"
                )
            }
            thresholds.append(threshold)
        }
        return thresholds
    }

    /// summary.csv: the strategies and the run-level columns (taken from the first row; the
    /// canonical check holds every row to them).
    mutating func readSummary() throws(ReportError) -> (threads: Int, peakRSS: UInt64, arrivals: ArrivalReport) {
        let file = ReportSchema.summaryFile
        let summary = try table(file, columns: ReportSchema.summaryColumns)
        guard !summary.rows.isEmpty else {
            throw inconsistent(file, "no strategy rows (a header only); a run writes one row per strategy")
        }
        var threads = 0
        var peakRSS: UInt64 = 0
        var arrivals = ArrivalReport()
        let covered = identity.coveredJourneys ?? .max
        for row in summary.rows.indices {
            let line = summary.rowLines[row]
            var fields: (runID: String, name: String, seed: UInt64, journeys: UInt64, wall: UInt64, bytes: UInt64) = (
                "", "", 0, 0, 0, 0
            )
            var costs = JourneyCostReport()
            try ReportReader.checked(filePath(file)) { () throws(CSVError) in
                // Every number first: counts non-negative below 2^64, the rest finite.
                for column in ReportSchema.summaryColumns where column.kind == .numeric {
                    if ReportSchema.summaryDecimalColumns.contains(column.name) {
                        _ = try summary.double(column.name, row: row)
                    } else {
                        _ = try summary.unsigned(column.name, row: row)
                    }
                }
                fields = (
                    CSVWriter.unneutralised(try summary.string("run_id", row: row)),
                    CSVWriter.unneutralised(try summary.string("strategy", row: row)),
                    try summary.unsigned("seed", row: row), try summary.unsigned("journeys", row: row),
                    try summary.unsigned("wall_ns", row: row), try summary.unsigned("allocated_bytes", row: row)
                )
                costs = JourneyCostReport(
                    strategyNanos: try summary.unsigned("strategy_ns", row: row),
                    harnessNanos: try summary.unsigned("harness_ns", row: row),
                    harnessAllocatedBytes: try summary.unsigned("harness_allocated_bytes", row: row),
                    racingJourneys: try summary.unsigned("racing_journeys", row: row),
                    racingNanos: try summary.unsigned("racing_ns", row: row)
                )
                if row == 0 {
                    threads = Int(clamping: try summary.unsigned("threads", row: row))
                    peakRSS = try summary.unsigned("peak_rss_bytes", row: row)
                    arrivals = ArrivalReport(
                        offeredPerSecond: try summary.double("offered_per_s", row: row),
                        lateStarts: try summary.unsigned("late_starts", row: row),
                        dropped: try summary.unsigned("dropped", row: row),
                        maxStartLagNanos: try summary.unsigned("max_start_lag_ns", row: row)
                    )
                }
            }
            guard fields.runID == identity.runID else {
                throw inconsistent(
                    file,
                    line: line,
                    "run_id '\(fields.runID)', manifest.json names '\(identity.runID)'"
                )
            }
            guard fields.seed == identity.seed else {
                throw inconsistent(file, line: line, "seed \(fields.seed), manifest.json names \(identity.seed)")
            }
            guard !strategies.contains(where: { $0.name == fields.name }) else {
                throw inconsistent(file, line: line, "strategy '\(fields.name)' appears twice (one row per strategy)")
            }
            guard fields.journeys <= covered else {
                throw inconsistent(
                    file,
                    line: line,
                    "'\(fields.name)' has \(fields.journeys) journeys, but the run covers \(covered) (manifest.json)"
                )
            }
            guard let journeys = Int(exactly: fields.journeys) else {
                throw inconsistent(file, line: line, "'\(fields.name)' has \(fields.journeys) journeys, above 2^63 − 1")
            }
            strategies.append(
                StrategyReport(
                    name: fields.name,
                    journeys: journeys,
                    wallNanos: fields.wall,
                    allocatedBytes: fields.bytes,
                    costs: costs
                )
            )
        }
        guard strategies.map(\.name) == identity.strategies else {
            throw inconsistent(
                file,
                "strategies \(strategies.map(\.name).joined(separator: ",")), manifest.json names "
                    + identity.strategies.joined(separator: ",")
            )
        }
        return (threads, peakRSS, arrivals)
    }

    mutating func readOutcomes() throws(ReportError) {
        let file = ReportSchema.outcomesFile
        let outcomes = try table(file, columns: ReportSchema.outcomesColumns)
        for row in outcomes.rows.indices {
            var name = ""
            var key = OutcomeKey(scenarioClass: "", outcome: "")
            var count: UInt64 = 0
            try ReportReader.checked(filePath(file)) { () throws(CSVError) in
                name = CSVWriter.unneutralised(try outcomes.string("strategy", row: row))
                key.scenarioClass = CSVWriter.unneutralised(try outcomes.string("scenario_class", row: row))
                key.outcome = CSVWriter.unneutralised(try outcomes.string("outcome", row: row))
                count = try outcomes.unsigned("count", row: row)
            }
            let line = outcomes.rowLines[row]
            let index = try strategyIndex(name, file, line: line)
            guard strategies[index].outcomeCounts.updateValue(count, forKey: key) == nil else {
                throw inconsistent(
                    file,
                    line: line,
                    "'\(name)' \(key.scenarioClass) \(key.outcome) appears twice (one row per outcome)"
                )
            }
        }
    }

    mutating func readCoverage() throws(ReportError) {
        let file = ReportSchema.coverageFile
        let coverage = try table(file, columns: ReportSchema.coverageColumns)
        for row in coverage.rows.indices {
            var name = ""
            var key = CoverageKey(kind: "", name: "")
            var count: UInt64 = 0
            try ReportReader.checked(filePath(file)) { () throws(CSVError) in
                name = CSVWriter.unneutralised(try coverage.string("strategy", row: row))
                key.kind = CSVWriter.unneutralised(try coverage.string("kind", row: row))
                key.name = CSVWriter.unneutralised(try coverage.string("name", row: row))
                count = try coverage.unsigned("journeys", row: row)
            }
            let line = coverage.rowLines[row]
            let index = try strategyIndex(name, file, line: line)
            guard strategies[index].coverage.updateValue(count, forKey: key) == nil else {
                throw inconsistent(file, line: line, "'\(name)' \(key.kind) '\(key.name)' appears twice")
            }
        }
    }

    mutating func readHistograms() throws(ReportError) {
        let file = ReportSchema.histogramsFile
        let histograms = try table(file, columns: ReportSchema.histogramsColumns)
        for row in histograms.rows.indices {
            var name = ""
            var metric = ""
            var fields: (count: UInt64, min: UInt64, max: UInt64, buckets: String) = (0, 0, 0, "")
            try ReportReader.checked(filePath(file)) { () throws(CSVError) in
                name = CSVWriter.unneutralised(try histograms.string("strategy", row: row))
                metric = CSVWriter.unneutralised(try histograms.string("metric", row: row))
                fields = (
                    try histograms.unsigned("count", row: row), try histograms.unsigned("min_ns", row: row),
                    try histograms.unsigned("max_ns", row: row), try histograms.string("buckets", row: row)
                )
            }
            let line = histograms.rowLines[row]
            let index = try strategyIndex(name, file, line: line)
            let histogram: Histogram
            do {
                histogram = try Histogram(
                    count: fields.count,
                    min: fields.min,
                    max: fields.max,
                    encodedBuckets: fields.buckets
                )
            } catch {
                throw .badHistogram(path: filePath(file), line: line, error)
            }
            guard strategies[index].histograms.updateValue(histogram, forKey: metric) == nil else {
                throw inconsistent(file, line: line, "'\(name)' \(metric) appears twice (one histogram per metric)")
            }
        }
    }

    mutating func readViolations() throws(ReportError) {
        let file = ReportSchema.violationsFile
        let violations = try table(file, columns: ReportSchema.violationsColumns)
        var seen = Set<[String]>()
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
            try ReportReader.checked(filePath(file)) { () throws(CSVError) in
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
            let line = violations.rowLines[row]
            let index = try strategyIndex(record.strategy, file, line: line)
            guard record.seed == identity.seed else {
                throw inconsistent(file, line: line, "seed \(record.seed), the run's is \(identity.seed)")
            }
            guard identity.journeyRanges.contains(where: { $0.contains(record.journey) }) else {
                throw inconsistent(
                    file,
                    line: line,
                    "journey \(record.journey) is outside the run's journeys \(RunIdentity.describe(identity.journeyRanges))"
                )
            }
            guard seen.insert([record.strategy, String(record.journey)]).inserted else {
                throw inconsistent(file, line: line, "'\(record.strategy)' journey \(record.journey) appears twice")
            }
            strategies[index].violations.append(record)
        }
    }

    /// Per strategy: outcomes add up to journeys; the `journey` histogram (and open loop's
    /// `journey_corrected`) holds one value per timed journey; no more violation rows than
    /// violations.
    func checkStrategies() throws(ReportError) {
        for strategy in strategies {
            var total: UInt64 = 0
            var untimed: UInt64 = 0
            var violations: UInt64 = 0
            for (key, count) in strategy.outcomeCounts {
                let (sum, overflow) = total.addingReportingOverflow(count)
                guard !overflow else {
                    throw .overflow("\(filePath(ReportSchema.outcomesFile)): the outcomes of '\(strategy.name)'")
                }
                total = sum
                // Both at most `total`, so neither overflows.
                if key.outcome == Outcome.trapped || key.outcome == Outcome.hung { untimed += count }
                if Outcome.isViolation(key.outcome) { violations += count }
            }
            guard total == UInt64(strategy.journeys) else {
                throw inconsistent(
                    ReportSchema.outcomesFile,
                    "the outcomes of '\(strategy.name)' add up to \(total), summary.csv says \(strategy.journeys) "
                        + "journeys (every journey has exactly one outcome)"
                )
            }
            let timed = total - untimed
            let isOpenLoop = identity.loop != .closed
            for metric in [Metric.journey, Metric.journeyCorrected] {
                guard let histogram = strategy.histograms[metric] else {
                    guard timed > 0, metric == Metric.journey || isOpenLoop else { continue }
                    throw inconsistent(
                        ReportSchema.histogramsFile,
                        "'\(strategy.name)' has no \(metric) histogram for its \(timed) timed journeys"
                    )
                }
                guard histogram.count == timed else {
                    throw inconsistent(
                        ReportSchema.histogramsFile,
                        "'\(strategy.name)' \(metric) holds \(histogram.count) values, but \(timed) of its "
                            + "\(strategy.journeys) journeys were timed (all but trapped and hung)"
                    )
                }
            }
            let racing = strategy.histograms[Metric.journeyRacing]?.count
            let other = strategy.histograms[Metric.journeyNonRacing]?.count
            let split = (racing ?? 0).addingReportingOverflow(other ?? 0)
            if racing != nil || other != nil,
                split.overflow || split.partialValue != timed || (racing ?? 0) != strategy.costs.racingJourneys
            {
                throw inconsistent(
                    ReportSchema.histogramsFile,
                    "'\(strategy.name)' journey_racing and journey_non_racing hold \(racing ?? 0) and \(other ?? 0) values; "
                        + "its \(timed) timed journeys, \(strategy.costs.racingJourneys) of them racing (summary.csv), "
                        + "do not split so"
                )
            }
            guard UInt64(strategy.violations.count) <= violations else {
                throw inconsistent(
                    ReportSchema.violationsFile,
                    "\(strategy.violations.count) rows for '\(strategy.name)', whose outcomes hold \(violations) "
                        + "violations"
                )
            }
        }
    }
}
