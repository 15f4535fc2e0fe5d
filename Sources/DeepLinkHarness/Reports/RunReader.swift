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

    /// Row by row through the sealed file `name` (every column of `columns` present): `parse`
    /// reads the row's fields (a ``CSVError`` names the file), then `body` checks and keeps them,
    /// given the row's line, before the next row is read.
    mutating func forEachRow<Fields>(
        of name: String,
        columns: [CSVWriter.Column],
        parse: (Row) throws(CSVError) -> Fields,
        _ body: (inout RunReader, Fields, _ line: Int) throws(ReportError) -> Void
    ) throws(ReportError) {
        let table = try table(name, columns: columns)
        for index in table.rows.indices {
            let fields: Fields
            do {
                fields = try parse(Row(table: table, index: index))
            } catch {
                throw .badCSV(path: filePath(name), error)
            }
            try body(&self, fields, table.rowLines[index])
        }
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
    mutating func readThresholds() throws(ReportError) -> [Threshold] {
        let file = ReportSchema.thresholdsFile
        guard sealed.contents[file] != nil else { return [] }
        var thresholds: [Threshold] = []
        try forEachRow(of: file, columns: ReportSchema.thresholdsColumns) { row throws(CSVError) in
            try row.text("expression")
        } _: { reader, expression, line throws(ReportError) in
            let threshold: Threshold
            do throws(ThresholdError) {
                threshold = try Threshold.parse(expression)
            } catch {
                throw reader.inconsistent(file, line: line, error.message)
            }
            guard reader.strategies.contains(where: { $0.name == threshold.strategy }) else {
                throw reader.inconsistent(
                    file,
                    line: line,
                    "'\(expression)' names strategy '\(threshold.strategy)', which is not in summary.csv"
                )
            }
            thresholds.append(threshold)
        }
        return thresholds
    }

    /// The run-level columns of summary.csv (the same on every row).
    struct SummaryHeader {
        var threads = 0
        var peakRSS: UInt64 = 0
        var arrivals = ArrivalReport()
    }

    /// summary.csv: the strategies and the run-level columns (taken from the first row; the
    /// canonical check holds every row to them).
    mutating func readSummary() throws(ReportError) -> SummaryHeader {
        let file = ReportSchema.summaryFile
        var header = SummaryHeader()
        let covered = identity.coveredJourneys ?? .max
        try forEachRow(of: file, columns: ReportSchema.summaryColumns) { row throws(CSVError) in
            // Every number first: counts non-negative below 2^64, the rest finite.
            for column in ReportSchema.summaryColumns where column.kind == .numeric {
                if ReportSchema.summaryDecimalColumns.contains(column.name) {
                    _ = try row.number(column.name)
                } else {
                    _ = try row.count(column.name)
                }
            }
            if row.index == 0 {
                header = SummaryHeader(
                    threads: Int(clamping: try row.count("threads")),
                    peakRSS: try row.count("peak_rss_bytes"),
                    arrivals: ArrivalReport(
                        offeredPerSecond: try row.number("offered_per_s"),
                        lateStarts: try row.count("late_starts"),
                        dropped: try row.count("dropped"),
                        maxStartLagNanos: try row.count("max_start_lag_ns")
                    )
                )
            }
            return (
                runID: try row.text("run_id"), name: try row.text("strategy"), seed: try row.count("seed"),
                journeys: try row.count("journeys"), wall: try row.count("wall_ns"),
                bytes: try row.count("allocated_bytes"),
                costs: JourneyCostReport(
                    strategyNanos: try row.count("strategy_ns"),
                    harnessNanos: try row.count("harness_ns"),
                    harnessAllocatedBytes: try row.count("harness_allocated_bytes"),
                    racingJourneys: try row.count("racing_journeys"),
                    racingNanos: try row.count("racing_ns"),
                    libcryptoBytes: try row.count("libcrypto_bytes"),
                    racingBytes: try row.count("racing_bytes"),
                    racingLibcryptoBytes: try row.count("racing_libcrypto_bytes")
                )
            )
        } _: { reader, fields, line throws(ReportError) in
            let identity = reader.identity
            guard fields.runID == identity.runID else {
                throw reader.inconsistent(
                    file,
                    line: line,
                    "run_id '\(fields.runID)', manifest.json names '\(identity.runID)'"
                )
            }
            guard fields.seed == identity.seed else {
                throw reader.inconsistent(file, line: line, "seed \(fields.seed), manifest.json names \(identity.seed)")
            }
            guard !reader.strategies.contains(where: { $0.name == fields.name }) else {
                throw reader.inconsistent(
                    file,
                    line: line,
                    "strategy '\(fields.name)' appears twice (one row per strategy)"
                )
            }
            guard fields.journeys <= covered else {
                throw reader.inconsistent(
                    file,
                    line: line,
                    "'\(fields.name)' has \(fields.journeys) journeys, but the run covers \(covered) (manifest.json)"
                )
            }
            guard let journeys = Int(exactly: fields.journeys) else {
                throw reader.inconsistent(
                    file,
                    line: line,
                    "'\(fields.name)' has \(fields.journeys) journeys, above 2^63 − 1"
                )
            }
            reader.strategies.append(
                StrategyReport(
                    name: fields.name,
                    journeys: journeys,
                    wallNanos: fields.wall,
                    allocatedBytes: fields.bytes,
                    costs: fields.costs
                )
            )
        }
        guard !strategies.isEmpty else {
            throw inconsistent(file, "no strategy rows (a header only); a run writes one row per strategy")
        }
        guard strategies.map(\.name) == identity.strategies else {
            throw inconsistent(
                file,
                "strategies \(strategies.map(\.name).joined(separator: ",")), manifest.json names "
                    + identity.strategies.joined(separator: ",")
            )
        }
        return header
    }

    mutating func readOutcomes() throws(ReportError) {
        try readCounts(ReportSchema.outcomesFile, columns: ReportSchema.outcomesColumns, into: \.outcomeCounts) {
            row throws(CSVError) in
            (
                OutcomeKey(scenarioClass: try row.text("scenario_class"), outcome: try row.text("outcome")),
                try row.count("count")
            )
        } twice: { name, key in
            "'\(name)' \(key.scenarioClass) \(key.outcome) appears twice (one row per outcome)"
        }
    }

    mutating func readCoverage() throws(ReportError) {
        try readCounts(ReportSchema.coverageFile, columns: ReportSchema.coverageColumns, into: \.coverage) {
            row throws(CSVError) in
            (CoverageKey(kind: try row.text("kind"), name: try row.text("name")), try row.count("journeys"))
        } twice: { name, key in
            "'\(name)' \(key.kind) '\(key.name)' appears twice"
        }
    }

    /// A table of counts by strategy and key (outcomes.csv, coverage.csv): `parse` reads a row's
    /// key and count, which go into `counts` of the strategy its `strategy` column names; a key
    /// seen twice for one strategy is refused with `twice(strategy, key)`.
    mutating func readCounts<Key: Hashable>(
        _ file: String,
        columns: [CSVWriter.Column],
        into counts: WritableKeyPath<StrategyReport, [Key: UInt64]>,
        parse: (Row) throws(CSVError) -> (key: Key, count: UInt64),
        twice: (_ strategy: String, Key) -> String
    ) throws(ReportError) {
        try forEachRow(of: file, columns: columns) { row throws(CSVError) in
            (name: try row.text("strategy"), entry: try parse(row))
        } _: { reader, fields, line throws(ReportError) in
            let index = try reader.strategyIndex(fields.name, file, line: line)
            guard
                reader.strategies[index][keyPath: counts].updateValue(fields.entry.count, forKey: fields.entry.key)
                    == nil
            else { throw reader.inconsistent(file, line: line, twice(fields.name, fields.entry.key)) }
        }
    }

    mutating func readHistograms() throws(ReportError) {
        let file = ReportSchema.histogramsFile
        try forEachRow(of: file, columns: ReportSchema.histogramsColumns) { row throws(CSVError) in
            (
                name: try row.text("strategy"), metric: try row.text("metric"), count: try row.count("count"),
                min: try row.count("min_ns"), max: try row.count("max_ns"), buckets: try row.raw("buckets")
            )
        } _: { reader, fields, line throws(ReportError) in
            let index = try reader.strategyIndex(fields.name, file, line: line)
            let histogram: Histogram
            do throws(HistogramDecodingError) {
                histogram = try Histogram(
                    count: fields.count,
                    min: fields.min,
                    max: fields.max,
                    encodedBuckets: fields.buckets
                )
            } catch {
                throw .badHistogram(path: reader.filePath(file), line: line, error)
            }
            guard reader.strategies[index].histograms.updateValue(histogram, forKey: fields.metric) == nil else {
                throw reader.inconsistent(
                    file,
                    line: line,
                    "'\(fields.name)' \(fields.metric) appears twice (one histogram per metric)"
                )
            }
        }
    }

    mutating func readViolations() throws(ReportError) {
        let file = ReportSchema.violationsFile
        var seen = Set<[String]>()
        try forEachRow(of: file, columns: ReportSchema.violationsColumns) { row throws(CSVError) in
            ViolationRecord(
                strategy: try row.text("strategy"),
                seed: try row.count("seed"),
                journey: try row.count("journey"),
                scenarioClass: try row.text("scenario_class"),
                expected: try row.text("expected"),
                actual: try row.text("actual"),
                trace: try row.text("trace")
            )
        } _: { reader, record, line throws(ReportError) in
            let identity = reader.identity
            let index = try reader.strategyIndex(record.strategy, file, line: line)
            guard record.seed == identity.seed else {
                throw reader.inconsistent(file, line: line, "seed \(record.seed), the run's is \(identity.seed)")
            }
            guard identity.journeyRanges.contains(where: { $0.contains(record.journey) }) else {
                throw reader.inconsistent(
                    file,
                    line: line,
                    "journey \(record.journey) is outside the run's journeys "
                        + RunIdentity.describe(identity.journeyRanges)
                )
            }
            guard seen.insert([record.strategy, String(record.journey)]).inserted else {
                throw reader.inconsistent(
                    file,
                    line: line,
                    "'\(record.strategy)' journey \(record.journey) appears twice"
                )
            }
            reader.strategies[index].violations.append(record)
        }
    }
}
