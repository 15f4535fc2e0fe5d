import Foundation

/// Reading the gate's inputs: report directories (a sealed report, or a directory of repetitions
/// `rep-1…rep-N` that each hold one), checked to be comparable, their numbers and their host
/// description.
///
/// Thread safety: stateless; reads files only.
package enum GateInput {
    /// The report directories `argument` names: comma-separated paths, each a report directory
    /// (it holds manifest.json) or a directory of repetitions, standing for its `rep-1…rep-N`. With
    /// `repetitions` (`gate --repetitions N`) exactly `rep-1…rep-N` are read; otherwise the
    /// `rep-K` subdirectories must be numbered 1…N without a gap. Nothing else in a directory of
    /// repetitions is read; a path that is neither is refused.
    package static func directories(_ argument: String, repetitions: Int? = nil) throws(ReportError) -> [String] {
        var result: [String] = []
        for path in argument.split(separator: ",").map(String.init) where !path.isEmpty {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw .cannotRead(path: path, reason: "no such report directory")
            }
            if let other = otherOutput(in: path) {
                throw .incompatible(
                    "\(path) is \(other), not a run's report directory: gate compares the directories "
                        + "`deeplink-bench run --out DIR` writes (summary.csv, latency.csv, … and manifest.json), or "
                        + "directories of them named rep-1, rep-2, …"
                )
            }
            if repetitions == nil, exists(ReportSchema.manifestFile, in: path) {
                result.append(path)
                continue
            }
            let numbers = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).compactMap(repetition)
            let count = repetitions ?? numbers.count
            guard count > 0 else {
                // Report files without a manifest.json: an unfinished write, refused as incomplete.
                if ReportReader.runFiles.contains(where: { exists($0, in: path) }) {
                    _ = try SealedDirectory.open(path, requiring: ReportReader.runFiles)
                }
                throw .incompatible(
                    "\(path) is neither a report directory (no manifest.json) nor a directory of repetitions "
                        + "(rep-1, rep-2, …): name a run's report directory"
                )
            }
            if repetitions == nil, let stray = numbers.sorted().first(where: { $0 > count }) {
                throw .incompatible(
                    "\(path) holds rep-\(stray) but not every rep-1…rep-\(stray): the repetitions to compare are "
                        + "unclear; remove the leftover or name the runs one by one"
                )
            }
            result += (1...count).map { ReportReader.path("rep-\($0)", in: path) }
        }
        guard !result.isEmpty else { throw .incompatible("no report directories given") }
        return result
    }

    /// What another command's output directory is, named by the file that command writes, when
    /// `directory` holds no run (no summary.csv) and no repetitions (a gate over repetitions writes
    /// its gate.csv beside them); nil when it is none of them.
    static func otherOutput(in directory: String) -> String? {
        guard !exists(ReportSchema.summaryFile, in: directory),
            !((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).contains(where: {
                repetition($0) != nil
            })
        else { return nil }
        if exists(CapacityReport.file, in: directory) {
            return "a capacity sweep (\(CapacityReport.file), written by deeplink-bench capacity)"
        }
        if exists(InstructionCount.file, in: directory) {
            return "an instruction-count record (\(InstructionCount.file), written by gate --instructions; compare "
                + "two with gate --instructions --baseline DIR --current DIR)"
        }
        if exists(GateCommand.file, in: directory) {
            return "a gate's output (\(GateCommand.file), written by deeplink-bench gate)"
        }
        return nil
    }

    /// `K` for a subdirectory name `rep-K` (K ≥ 1, no leading zero), else nil.
    static func repetition(_ name: String) -> Int? {
        guard name.hasPrefix("rep-"), let number = Int(name.dropFirst(4)), number >= 1,
            String(number) == name.dropFirst(4)
        else { return nil }
        return number
    }

    static func exists(_ name: String, in directory: String) -> Bool {
        FileManager.default.fileExists(atPath: ReportReader.path(name, in: directory))
    }

    /// Reads every directory (verified, ``ReportReader/read(_:)``) and refuses what the gate must
    /// not compare: the same run twice (the same directory, or two directories holding the run
    /// with the same id and start time), or a run whose workload differs from the first
    /// baseline's (``RunIdentity/differences(from:includingCoverage:)``), naming the first difference.
    package static func checkComparable(baseline: [String], current: [String]) throws(ReportError) {
        var seen: [(key: String, directory: String)] = []
        var first: (identity: RunIdentity, directory: String)?
        for directory in baseline + current {
            let report = try ReportReader.read(directory)
            let resolved = URL(fileURLWithPath: directory).standardizedFileURL.resolvingSymlinksInPath().path
            for key in [resolved, "run \(report.runID) started \(report.manifest.startTime)"] {
                if let earlier = seen.first(where: { $0.key == key }) {
                    throw .incompatible(
                        "\(directory) and \(earlier.directory) are the same run (\(key)): counting one run twice "
                            + "fakes a repetition; give each run once"
                    )
                }
                seen.append((key, directory))
            }
            // The reader guarantees the identity is present.
            guard let identity = report.manifest.run else { continue }
            guard let first else {
                first = (identity, directory)
                continue
            }
            if let difference = identity.differences(from: first.identity).first {
                throw .incompatible(
                    "\(directory) is not comparable with \(first.directory): \(difference) (\(directory)'s first); "
                        + "compare runs of the same seed, journeys, strategies, mix, race share and loop (gate "
                        + "\(GateCommand.repetitions.name) N reruns the baseline's command line)"
                )
            }
        }
    }

    /// The numbers the gate compares, from the verified report in `directory`.
    package static func values(_ directory: String) throws(ReportError) -> RegressionGate.RunValues {
        values(of: try ReportReader.read(directory))
    }

    /// The numbers the gate compares: per strategy `journeys_per_s`, `bytes_per_journey`,
    /// `violations` and `racing_bytes` as summary.csv has them, and the judged latency percentiles
    /// of every histogram as latency.csv has them.
    package static func values(of report: RunReport) -> RegressionGate.RunValues {
        var values = RegressionGate.RunValues()
        if let disturbance = report.manifest.disturbance, disturbance.disturbed {
            values.disturbances = disturbance.reasons.isEmpty ? ["disturbed"] : disturbance.reasons
        }
        values.hostSpeedNanos = report.manifest.disturbance?.hostSpeedNanos
        for strategy in report.strategies {
            values.strategies.append(strategy.name)
            func written(_ value: Double, digits: Int) -> Double {
                Double(ReportSchema.decimal(value, digits: digits)) ?? 0
            }
            values.summary[strategy.name] = [
                "journeys_per_s": written(strategy.journeysPerSecond, digits: 0),
                "bytes_per_journey": written(strategy.bytesPerJourney, digits: 2),
                "violations": Double(strategy.violationCount),
                "racing_bytes": Double(strategy.costs.racingBytes),
            ]
            for (metric, histogram) in strategy.histograms {
                for percentile in RegressionGate.judgedPercentiles {
                    values.latency[strategy.name, default: [:]]["\(metric)/p\(percentile)"] = Double(
                        histogram.value(atPercentile: Double(percentile) ?? 0)
                    )
                }
            }
        }
        return values
    }

    /// The differences between two hosts that make timings incomparable: CPU model, cores,
    /// allocator. Empty when they match.
    package static func hostDifferences(_ baseline: RunManifest, _ current: RunManifest) -> [String] {
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
    package static func repetitionArguments(from manifest: RunManifest, out: String) throws(ReportError) -> [String] {
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
            if argument == Option.out.name {
                index += 1
                continue
            }
            if argument.hasPrefix(Option.out.name + "=") || argument == Flag.quiet.name { continue }
            kept.append(argument)
        }
        arguments = kept + [Flag.quiet.name, Option.out.name, out]
        return arguments
    }
}
