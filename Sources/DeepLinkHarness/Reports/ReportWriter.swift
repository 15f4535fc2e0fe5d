import Foundation

/// A named error writing or reading a report directory; the description names the file.
///
/// Thread safety: an immutable value.
public enum ReportError: Error, Equatable, Sendable, CustomStringConvertible {
    case cannotCreateDirectory(path: String, reason: String)
    case cannotWrite(path: String, reason: String)
    case missingFile(path: String)
    case cannotRead(path: String, reason: String)
    /// A CSV file that does not parse, or lacks a column; the file is named.
    case badCSV(path: String, CSVError)
    case badManifest(path: String, reason: String)
    case badHistogram(path: String, line: Int, HistogramDecodingError)
    /// Inputs that cannot be combined (merge) or compared (gate), with the reason.
    case incompatible(String)

    public var description: String {
        switch self {
        case .cannotCreateDirectory(let path, let reason): "cannot create directory \(path): \(reason)"
        case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
        case .missingFile(let path): "missing file \(path)"
        case .cannotRead(let path, let reason): "cannot read \(path): \(reason)"
        case .badCSV(let path, let error): "\(path): \(error)"
        case .badManifest(let path, let reason): "\(path): bad manifest: \(reason)"
        case .badHistogram(let path, let line, let error): "\(path) line \(line): \(error)"
        case .incompatible(let reason): reason
        }
    }
}

/// Writes a ``RunReport`` as a directory of RFC 4180 CSV files and a JSON manifest (see
/// ``ReportSchema`` and `Reports/README.md`): summary.csv, latency.csv, outcomes.csv,
/// violations.csv, histograms.csv, manifest.json. Every file is written whole to a temporary name
/// and renamed, so a reader never sees half a file. Output is deterministic for a given report
/// (rows in a stable order).
///
/// Thread safety: stateless; concurrent writes to different directories are fine.
public enum ReportWriter {
    /// Writes every report file of `report` into `directory` (created with its parents if needed;
    /// existing report files are replaced).
    public static func write(_ report: RunReport, to directory: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw ReportError.cannotCreateDirectory(path: directory, reason: "\(error.localizedDescription)")
        }
        try writeFile(summaryCSV(report), named: ReportSchema.summaryFile, in: directory)
        try writeFile(latencyCSV(report), named: ReportSchema.latencyFile, in: directory)
        try writeFile(outcomesCSV(report), named: ReportSchema.outcomesFile, in: directory)
        try writeFile(violationsCSV(report), named: ReportSchema.violationsFile, in: directory)
        try writeFile(histogramsCSV(report), named: ReportSchema.histogramsFile, in: directory)
        try writeFile(coverageCSV(report), named: ReportSchema.coverageFile, in: directory)
        try writeFile(manifestJSON(report.manifest), named: ReportSchema.manifestFile, in: directory)
    }

    /// summary.csv: one row per strategy, in report order.
    public static func summaryCSV(_ report: RunReport) throws -> String {
        var writer = CSVWriter(columns: ReportSchema.summaryColumns)
        for strategy in report.strategies {
            let totals = strategy.outcomeTotals
            var row = [
                report.runID, strategy.name, String(report.seed), String(strategy.journeys), String(report.threads),
                String(strategy.wallNanos), ReportSchema.decimal(strategy.journeysPerSecond, digits: 0),
            ]
            row += Outcome.summaryColumns.map { String(totals[$0.column, default: 0]) }
            row += [
                String(totals["unclassified", default: 0]), String(strategy.violationCount),
                String(strategy.allocatedBytes), ReportSchema.decimal(strategy.bytesPerJourney, digits: 2),
                String(report.peakRSSBytes),
            ]
            row += report.arrivals.fields
            try writer.append(row)
        }
        return writer.text
    }

    /// latency.csv: per strategy (report order), metric (``Metric/ordered(_:)``) and percentile
    /// (``ReportSchema/percentiles``), the value in ns and the histogram's total count.
    public static func latencyCSV(_ report: RunReport) throws -> String {
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
    public static func coverageCSV(_ report: RunReport) throws -> String {
        var writer = CSVWriter(columns: ReportSchema.coverageColumns)
        for strategy in report.strategies {
            for key in strategy.coverage.keys.sorted(by: CoverageKey.precedes) {
                try writer.append([
                    strategy.name, key.kind, key.name, String(strategy.coverage[key, default: 0]),
                ])
            }
        }
        return writer.text
    }

    /// outcomes.csv: non-zero counters per strategy (report order), scenario class and outcome
    /// (both in byte order).
    public static func outcomesCSV(_ report: RunReport) throws -> String {
        var writer = CSVWriter(columns: ReportSchema.outcomesColumns)
        for strategy in report.strategies {
            let keys = strategy.outcomeCounts.filter { $0.value > 0 }.keys.sorted { lhs, rhs in
                if lhs.scenarioClass != rhs.scenarioClass {
                    return ReportSchema.precedes(lhs.scenarioClass, rhs.scenarioClass)
                }
                return ReportSchema.precedes(lhs.outcome, rhs.outcome)
            }
            for key in keys {
                try writer.append([
                    strategy.name, key.scenarioClass, key.outcome, String(strategy.outcomeCounts[key, default: 0]),
                ])
            }
        }
        return writer.text
    }

    /// violations.csv: per strategy (report order), its first
    /// ``ReportSchema/maxViolationRowsPerStrategy`` violations by (seed, journey index).
    public static func violationsCSV(_ report: RunReport) throws -> String {
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
    public static func histogramsCSV(_ report: RunReport) throws -> String {
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

    /// manifest.json: pretty-printed, keys sorted, escaped by `JSONEncoder`.
    public static func manifestJSON(_ manifest: RunManifest) throws -> String {
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
