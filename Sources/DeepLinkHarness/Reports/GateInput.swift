import Foundation

/// Reading the gate's inputs: report directories (a directory holding summary.csv, or a directory
/// of repetition subdirectories that each hold one), their numbers and their host description.
///
/// Thread safety: stateless; reads files only.
public enum GateInput {
    /// The report directories `argument` names: comma-separated paths; a path without
    /// summary.csv but with subdirectories that have one stands for those subdirectories (sorted),
    /// as written by `gate --repetitions`.
    public static func directories(_ argument: String) -> [String] {
        var result: [String] = []
        for path in argument.split(separator: ",").map(String.init) where !path.isEmpty {
            let summary = (path as NSString).appendingPathComponent(ReportSchema.summaryFile)
            if FileManager.default.fileExists(atPath: summary) {
                result.append(path)
                continue
            }
            let children = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            let reports = children.sorted().map { (path as NSString).appendingPathComponent($0) }.filter {
                FileManager.default.fileExists(
                    atPath: ($0 as NSString).appendingPathComponent(ReportSchema.summaryFile)
                )
            }
            result += reports.isEmpty ? [path] : reports
        }
        return result
    }

    static let summaryColumns =
        ["strategy", "journeys_per_s", "bytes_per_journey", "violations"]
        + Outcome.violations.map(Outcome.summaryColumn(for:))
    static let latencyColumns = ["strategy", "metric", "percentile", "value_ns"]

    /// The numbers the gate compares, from summary.csv and latency.csv of `directory`.
    public static func values(_ directory: String) throws(ReportError) -> RegressionGate.RunValues {
        var values = RegressionGate.RunValues()
        let summary = try ReportReader.table(ReportSchema.summaryFile, in: directory)
        try ReportReader.checked(ReportReader.path(ReportSchema.summaryFile, in: directory)) { () throws(CSVError) in
            try summary.require(summaryColumns)
            for row in summary.rows.indices {
                let strategy = CSVWriter.unneutralised(try summary.string("strategy", row: row))
                var numbers: [String: Double] = [:]
                for column in summaryColumns.dropFirst() { numbers[column] = try summary.double(column, row: row) }
                let kinds = Outcome.violations.reduce(0) { $0 + (numbers[Outcome.summaryColumn(for: $1)] ?? 0) }
                numbers["violations"] = Swift.max(numbers["violations"] ?? 0, kinds)
                if values.summary[strategy] == nil { values.strategies.append(strategy) }
                values.summary[strategy] = numbers
            }
        }
        let latency = try ReportReader.table(ReportSchema.latencyFile, in: directory)
        try ReportReader.checked(ReportReader.path(ReportSchema.latencyFile, in: directory)) { () throws(CSVError) in
            try latency.require(latencyColumns)
            for row in latency.rows.indices {
                let percentile = try latency.string("percentile", row: row)
                guard RegressionGate.judgedPercentiles.contains(percentile) else { continue }
                let strategy = CSVWriter.unneutralised(try latency.string("strategy", row: row))
                let metric = CSVWriter.unneutralised(try latency.string("metric", row: row))
                values.latency[strategy, default: [:]]["\(metric)/p\(percentile)"] = try latency.double(
                    "value_ns",
                    row: row
                )
            }
        }
        return values
    }

    /// The differences between two hosts that make timings incomparable: CPU model, cores,
    /// allocator. Empty when they match.
    public static func hostDifferences(_ baseline: RunManifest, _ current: RunManifest) -> [String] {
        var differences: [String] = []
        if baseline.cpuModel != current.cpuModel {
            differences.append("cpu_model '\(baseline.cpuModel)' vs '\(current.cpuModel)'")
        }
        if baseline.cores != current.cores { differences.append("cores \(baseline.cores) vs \(current.cores)") }
        if baseline.allocator != current.allocator {
            differences.append("allocator '\(baseline.allocator)' vs '\(current.allocator)'")
        }
        return differences
    }

    /// The command line to repeat the baseline's run: its manifest's `command_line` without the
    /// program name, `--out` and `--quiet`, with `--quiet --out DIR` appended.
    public static func repetitionArguments(from manifest: RunManifest, out: String) throws(ReportError) -> [String] {
        var arguments = Array(manifest.commandLine.dropFirst())
        guard arguments.first == "run" else {
            throw .incompatible(
                "the baseline's manifest.json command_line is not a 'run' (\(manifest.commandLine.joined(separator: " "))); cannot repeat it"
            )
        }
        var kept: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--out" {
                index += 1
                continue
            }
            if argument.hasPrefix("--out=") || argument == "--quiet" { continue }
            kept.append(argument)
        }
        arguments = kept + ["--quiet", "--out", out]
        return arguments
    }
}
