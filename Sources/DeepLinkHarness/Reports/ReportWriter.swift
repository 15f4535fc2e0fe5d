import Foundation

/// Writes a ``RunReport`` as a directory of RFC 4180 CSV files and a JSON manifest (see
/// ``ReportSchema`` and `Reports/README.md`): summary.csv, latency.csv, outcomes.csv,
/// violations.csv, histograms.csv, coverage.csv, then manifest.json. The directory is written as
/// one unit (``SealedDirectory``): readers see the old report or the whole new one, never a mix,
/// and manifest.json lists every file with its size and SHA-256. Output is deterministic for a
/// given report (rows in a stable order), which ``ReportReader`` relies on.
///
/// Thread safety: stateless; concurrent writes to different directories are fine.
package enum ReportWriter {
    /// The report files of `report` (without manifest.json), in writing order.
    package static func files(_ report: RunReport) throws -> [(name: String, bytes: [UInt8])] {
        var files = [
            (ReportSchema.summaryFile, Array(try summaryCSV(report).utf8)),
            (ReportSchema.latencyFile, Array(try latencyCSV(report).utf8)),
            (ReportSchema.outcomesFile, Array(try outcomesCSV(report).utf8)),
            (ReportSchema.violationsFile, Array(try violationsCSV(report).utf8)),
            (ReportSchema.histogramsFile, Array(try histogramsCSV(report).utf8)),
            (ReportSchema.coverageFile, Array(try coverageCSV(report).utf8)),
        ]
        if !report.thresholds.isEmpty {
            files.append((ReportSchema.thresholdsFile, Array(try thresholdsCSV(report).utf8)))
        }
        files.append((ReportSchema.summaryJSONFile, Array(summaryJSON(report).utf8)))
        files.append((ReportSchema.latencyLogFile, Array(HistogramLog.text(report).utf8)))
        return files
    }

    /// thresholds.csv: each threshold (``RunReport/thresholds``, in order) judged against the
    /// report: its bound and the observed value in the metric's unit, and 1 when it held.
    package static func thresholdsCSV(_ report: RunReport) throws -> String {
        var writer = CSVWriter(columns: ReportSchema.thresholdsColumns)
        for result in RunVerdict(report).results {
            let threshold = result.threshold
            try writer.append([
                threshold.expression, threshold.strategy, threshold.metric.rawValue,
                ReportSchema.decimal(threshold.bound, digits: 3),
                result.observed.map { ReportSchema.decimal($0, digits: 0) } ?? "",
                result.passed ? "1" : "0",
            ])
        }
        return writer.text
    }

    /// Writes every report file of `report` into `directory` as one unit, replacing an older
    /// report there (see ``SealedDirectory/write(_:manifest:to:storage:)``). The manifest's
    /// ``RunManifest/run`` must name the run's workload; its id, seed and strategies are taken
    /// from `report`.
    package static func write(_ report: RunReport, to directory: String, storage: ReportStorage = .posix) throws {
        guard var identity = report.manifest.run else {
            throw ReportError.incompatible(
                "cannot write a report to \(directory): its manifest names no run (seed, journeys, mix, race share, "
                    + "loop); build the report with RunResult.report or set RunManifest.run"
            )
        }
        identity.runID = report.runID
        identity.seed = report.seed
        identity.strategies = report.strategies.map(\.name)
        var manifest = report.manifest
        manifest.run = identity
        try SealedDirectory.write(try files(report), manifest: manifest, to: directory, storage: storage)
    }

    /// summary.csv: one row per strategy, in report order.
    package static func summaryCSV(_ report: RunReport) throws -> String {
        var writer = CSVWriter(columns: ReportSchema.summaryColumns)
        for row in summaryRows(report) { try writer.append(row) }
        return writer.text
    }

    /// summary.csv's rows (``ReportSchema/summaryColumns``), one per strategy in report order:
    /// also summary.json's facts.
    static func summaryRows(_ report: RunReport) -> [[String]] {
        report.strategies.map { strategy in
            let totals = strategy.outcomeTotals
            var row = [
                report.runID, strategy.name, String(report.seed), String(strategy.journeys), String(report.threads),
                String(strategy.wallNanos), ReportSchema.decimal(strategy.journeysPerSecond, digits: 0),
            ]
            row += Outcome.summaryColumns.map { String(totals[$0.column, default: 0]) }
            row += [
                String(totals["unclassified", default: 0]), String(strategy.violationCount),
                String(strategy.allocatedBytes), ReportSchema.decimal(strategy.bytesPerJourney, digits: 2),
            ]
            row += strategy.costs.fields(journeys: strategy.journeys, threads: report.threads)
            row.append(String(report.peakRSSBytes))
            row += report.arrivals.fields
            row += (report.manifest.disturbance ?? Disturbance()).fields
            return row
        }
    }

    /// latency.csv: per strategy (report order), metric (``Metric/ordered(_:)``) and percentile
    /// (``ReportSchema/percentiles``), the value in ns and the histogram's total count.
    package static func latencyCSV(_ report: RunReport) throws -> String {
        var writer = CSVWriter(columns: ReportSchema.latencyColumns)
        for strategy in report.strategies {
            for metric in Metric.ordered(strategy.histograms.keys) {
                guard let histogram = strategy.histograms[metric] else { continue }
                for percentile in ReportSchema.percentiles {
                    let value = histogram.value(atPercentile: Double(percentile) ?? 0)
                    try writer.append([strategy.name, metric, percentile, String(value), String(histogram.count)])
                }
            }
        }
        return writer.text
    }

    /// coverage.csv: per strategy (report order), every feature and decision path it counted,
    /// zeros included (a path never taken is the point of the file), in ``CoverageKey`` order.
    package static func coverageCSV(_ report: RunReport) throws -> String {
        try countersCSV(report, columns: ReportSchema.coverageColumns, by: CoverageKey.precedes) { strategy in
            strategy.coverage.map { key, count in (key, key.kind, key.name, count) }
        }
    }

    /// outcomes.csv: non-zero counters per strategy (report order), scenario class and outcome
    /// (both in byte order).
    package static func outcomesCSV(_ report: RunReport) throws -> String {
        let order = { (lhs: OutcomeKey, rhs: OutcomeKey) -> Bool in
            if lhs.scenarioClass != rhs.scenarioClass {
                return ReportSchema.precedes(lhs.scenarioClass, rhs.scenarioClass)
            }
            return ReportSchema.precedes(lhs.outcome, rhs.outcome)
        }
        return try countersCSV(report, columns: ReportSchema.outcomesColumns, by: order) { strategy in
            strategy.outcomeCounts.compactMap { key, count in
                count > 0 ? (key, key.scenarioClass, key.outcome, count) : nil
            }
        }
    }

    /// A table of counters: per strategy (report order), one row per counter in `order` of its
    /// key, the strategy's name, the key's two columns and the count.
    static func countersCSV<Key>(
        _ report: RunReport,
        columns: [CSVWriter.Column],
        by order: (Key, Key) -> Bool,
        counters: (StrategyReport) -> [(key: Key, first: String, second: String, count: UInt64)]
    ) throws -> String {
        var writer = CSVWriter(columns: columns)
        for strategy in report.strategies {
            for counter in counters(strategy).sorted(by: { order($0.key, $1.key) }) {
                try writer.append([strategy.name, counter.first, counter.second, String(counter.count)])
            }
        }
        return writer.text
    }

    /// violations.csv: per strategy (report order), its first
    /// ``ReportSchema/maxViolationRowsPerStrategy`` violations by (seed, journey index).
    package static func violationsCSV(_ report: RunReport) throws -> String {
        var writer = CSVWriter(columns: ReportSchema.violationsColumns)
        for strategy in report.strategies {
            let sorted = strategy.violations.sorted { ($0.seed, $0.journey) < ($1.seed, $1.journey) }
            for violation in sorted.prefix(ReportSchema.maxViolationRowsPerStrategy) {
                try writer.append([
                    strategy.name, String(violation.seed), String(violation.journey), violation.scenarioClass,
                    violation.expected, violation.actual, violation.trace,
                ])
            }
        }
        return writer.text
    }

    /// histograms.csv: every histogram in its exact serialised form (``Histogram/encodedBuckets``).
    package static func histogramsCSV(_ report: RunReport) throws -> String {
        var writer = CSVWriter(columns: ReportSchema.histogramsColumns)
        for strategy in report.strategies {
            for metric in Metric.ordered(strategy.histograms.keys) {
                guard let histogram = strategy.histograms[metric] else { continue }
                try writer.append([
                    strategy.name, metric, String(histogram.count), String(histogram.min), String(histogram.max),
                    histogram.encodedBuckets,
                ])
            }
        }
        return writer.text
    }

    /// A manifest's JSON without a file list (pretty-printed, keys sorted, escaped by
    /// `JSONEncoder`); the manifest.json of a directory is ``SealedDirectory/manifestJSON(_:files:)``.
    package static func manifestJSON(_ manifest: RunManifest) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(manifest)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    static func writeFile(_ text: String, named name: String, in directory: String) throws {
        let path = (directory as NSString).appendingPathComponent(name)
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw ReportError.cannotWrite(path: path, reason: "\(error.localizedDescription)")
        }
    }
}
