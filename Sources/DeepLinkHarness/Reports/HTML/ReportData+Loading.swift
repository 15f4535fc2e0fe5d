import Foundation

extension ReportData {
    /// Reads `directory` (and, with `baseline`, the baseline's report directories to compare with).
    /// Reads nothing else. A directory with none of summary.csv, gate.csv, capacity.csv (nor
    /// repetition subdirectories) is ``ReportError/missingFile(path:)``; a garbled file is the
    /// named ``ReportError`` of ``ReportReader``. A run's directory is verified whole by
    /// ``ReportReader/read(_:)`` and a capacity directory against its manifest.json
    /// (``SealedDirectory``) before anything is drawn from them.
    package static func load(directory: String, baseline: String? = nil) throws(ReportError) -> ReportData {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue
        else { throw .cannotRead(path: directory, reason: "no such directory") }
        var data = ReportData(directory: directory)
        if exists(ReportSchema.manifestFile, in: directory) {
            data.manifest = try ReportReader.readManifest(directory)
        }
        // A gate over repetitions writes gate.csv beside rep-1…rep-N: the run sections show the
        // first repetition.
        var runDirectory: String?
        if exists(ReportSchema.summaryFile, in: directory) {
            runDirectory = directory
        } else if let first = ((try? GateInput.directories(directory)) ?? []).first(where: {
            $0 != directory && exists(ReportSchema.summaryFile, in: $0)
        }) {
            runDirectory = first
            data.runSource = first
            if data.manifest == nil, exists(ReportSchema.manifestFile, in: first) {
                data.manifest = try ReportReader.readManifest(first)
            }
        }
        if let runDirectory {
            let report = try ReportReader.read(runDirectory)
            data.run = try readRun(runDirectory)
            data.run?.verdict = report.thresholds.isEmpty ? nil : RunVerdict(report)
        }
        if exists(GateCommand.file, in: directory) {
            data.checks = try readGate(directory)
            data.checksSource = ReportReader.path(GateCommand.file, in: directory)
        }
        if let baseline, let runDirectory {
            let gate = RegressionGate()
            let before = try GateInput.directories(baseline).map(GateInput.values)
            let now = try GateInput.values(runDirectory)
            data.checks = gate.evaluate(baseline: before, current: [now]).map { check in
                Check(
                    strategy: check.strategy,
                    metric: check.metric,
                    kind: check.kind.rawValue,
                    baseline: check.baseline,
                    current: check.current,
                    changePercent: check.changePercent,
                    verdict: check.verdict.rawValue,
                    detail: check.detail,
                    interval: interval(in: check.detail, metric: check.metric)
                )
            }
            data.checksSource = baseline
            // As gate does: timings from another machine type are not comparable, so say so.
            let baselineDirectory = (try? GateInput.directories(baseline))?.first ?? baseline
            if let current = data.manifest, exists(ReportSchema.manifestFile, in: baselineDirectory) {
                let differences = GateInput.hostDifferences(try ReportReader.readManifest(baselineDirectory), current)
                if !differences.isEmpty {
                    data.checksSource =
                        baseline + " (host differs: " + differences.joined(separator: "; ")
                        + "; timing changes are not comparable)"
                }
            }
        }
        if exists(CapacityReport.file, in: directory) {
            _ = try SealedDirectory.open(directory, requiring: [CapacityReport.file])
            data.capacity = try readCapacity(directory)
            let line = data.manifest?.commandLine ?? []
            if let value = option(CapacityCommand.sloP99.name, in: line).flatMap(Double.init), value > 0 {
                data.capacityObjectiveNanos = value
            }
            data.capacityPeakPerSecond = option(CapacityCommand.peakPerSecond.name, in: line).flatMap(Double.init)
        }
        if exists("coverage.csv", in: directory) {
            data.coverage = try ReportReader.table("coverage.csv", in: directory)
        }
        guard data.run != nil || !data.checks.isEmpty || !data.capacity.isEmpty else {
            throw .missingFile(path: ReportReader.path(ReportSchema.summaryFile, in: directory))
        }
        return data
    }

    static func exists(_ name: String, in directory: String) -> Bool {
        FileManager.default.fileExists(atPath: ReportReader.path(name, in: directory))
    }

    /// The value after `name` in a recorded command line.
    static func option(_ name: String, in commandLine: [String]) -> String? {
        guard let index = commandLine.firstIndex(of: name), index + 1 < commandLine.count else { return nil }
        return commandLine[index + 1]
    }

    /// `[low%, high%]`, the change's 95 % interval (the sign of `change_pct`), from a gate detail
    /// such as `95% CI of the change [-5.0%, -1.2%] …`; a gate.csv written before the details
    /// gave the change gave `CI of regression [+1.2%, +5.0%]` (positive = worse), turned here into
    /// the change's interval (a throughput's regression is its drop).
    package static func interval(in detail: String, metric: String) -> (low: Double, high: Double)? {
        guard detail.contains("CI"), let open = detail.firstIndex(of: "["),
            let close = detail[open...].firstIndex(of: "]")
        else { return nil }
        let parts = detail[detail.index(after: open)..<close].split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "%", with: "")
                .replacingOccurrences(of: "+", with: "")
        }
        guard parts.count == 2, let low = Double(parts[0]), let high = Double(parts[1]), low.isFinite,
            high.isFinite
        else { return nil }
        if detail.contains("CI of regression"), metric == "journeys_per_s" { return (-high, -low) }
        return (low, high)
    }

    static func readRun(_ directory: String) throws(ReportError) -> Run {
        var run = Run()
        let summary = try ReportReader.table(ReportSchema.summaryFile, in: directory)
        try ReportReader.checked(ReportReader.path(ReportSchema.summaryFile, in: directory)) { () throws(CSVError) in
            try summary.require([
                "run_id", "strategy", "seed", "journeys", "threads", "wall_ns", "violations", "allocated_bytes",
                "peak_rss_bytes",
            ])
            func optional(_ column: String, _ row: Int) throws(CSVError) -> Double {
                summary.header.contains(column) ? try summary.double(column, row: row) : 0
            }
            for row in summary.rows.indices {
                run.runID = CSVWriter.unneutralised(try summary.string("run_id", row: row))
                run.seed = String(try summary.unsigned("seed", row: row))
                run.threads = Swift.max(run.threads, try summary.double("threads", row: row))
                run.peakRSSBytes = Swift.max(run.peakRSSBytes, try summary.double("peak_rss_bytes", row: row))
                run.offeredPerSecond = try optional("offered_per_s", row)
                run.lateStarts = try optional("late_starts", row)
                run.dropped = try optional("dropped", row)
                run.maxStartLagNanos = try optional("max_start_lag_ns", row)
                let journeys = try summary.double("journeys", row: row)
                let wall = try summary.double("wall_ns", row: row)
                let allocated = try summary.double("allocated_bytes", row: row)
                run.strategies.append(
                    Strategy(
                        name: CSVWriter.unneutralised(try summary.string("strategy", row: row)),
                        journeys: journeys,
                        wallNanos: wall,
                        journeysPerSecond: summary.header.contains("journeys_per_s")
                            ? try summary.double("journeys_per_s", row: row) : (wall > 0 ? journeys / wall * 1e9 : 0),
                        violations: try summary.double("violations", row: row),
                        allocatedBytes: allocated,
                        bytesPerJourney: journeys > 0 ? allocated / journeys : 0
                    )
                )
            }
        }
        if exists(ReportSchema.outcomesFile, in: directory) {
            let table = try ReportReader.table(ReportSchema.outcomesFile, in: directory)
            try ReportReader.checked(ReportReader.path(ReportSchema.outcomesFile, in: directory)) {
                () throws(CSVError) in
                try table.require(["strategy", "scenario_class", "outcome", "count"])
                for row in table.rows.indices {
                    run.outcomes.append(
                        OutcomeCount(
                            strategy: CSVWriter.unneutralised(try table.string("strategy", row: row)),
                            scenarioClass: CSVWriter.unneutralised(try table.string("scenario_class", row: row)),
                            outcome: CSVWriter.unneutralised(try table.string("outcome", row: row)),
                            count: try table.double("count", row: row)
                        )
                    )
                }
            }
        }
        // The strategies under test first, the peers after them, each in report order.
        run.strategies =
            run.strategies.filter { RunVerdict.isUnderTest($0.name) }
            + run.strategies.filter { !RunVerdict.isUnderTest($0.name) }
        var metricNames: [String] = []
        if exists(ReportSchema.histogramsFile, in: directory) {
            let table = try ReportReader.table(ReportSchema.histogramsFile, in: directory)
            let filePath = ReportReader.path(ReportSchema.histogramsFile, in: directory)
            try ReportReader.checked(filePath) { () throws(CSVError) in
                try table.require(ReportSchema.histogramsColumns.map(\.name))
            }
            for row in table.rows.indices {
                var fields = (strategy: "", metric: "", count: UInt64(0), min: UInt64(0), max: UInt64(0), buckets: "")
                try ReportReader.checked(filePath) { () throws(CSVError) in
                    fields = (
                        CSVWriter.unneutralised(try table.string("strategy", row: row)),
                        CSVWriter.unneutralised(try table.string("metric", row: row)),
                        try table.unsigned("count", row: row), try table.unsigned("min_ns", row: row),
                        try table.unsigned("max_ns", row: row), try table.string("buckets", row: row)
                    )
                }
                do {
                    let histogram = try Histogram(
                        count: fields.count,
                        min: fields.min,
                        max: fields.max,
                        encodedBuckets: fields.buckets
                    )
                    run.histograms[fields.strategy, default: [:]][fields.metric, default: Histogram()].merge(histogram)
                    metricNames.append(fields.metric)
                } catch {
                    throw .badHistogram(path: filePath, line: table.rowLines[row], error)
                }
            }
        }
        if exists(ReportSchema.latencyFile, in: directory) {
            let table = try ReportReader.table(ReportSchema.latencyFile, in: directory)
            try ReportReader.checked(ReportReader.path(ReportSchema.latencyFile, in: directory)) {
                () throws(CSVError) in
                try table.require(["strategy", "metric", "percentile", "value_ns"])
                for row in table.rows.indices {
                    let strategy = CSVWriter.unneutralised(try table.string("strategy", row: row))
                    let metric = CSVWriter.unneutralised(try table.string("metric", row: row))
                    run.latency[strategy, default: [:]][metric, default: []].append(
                        (try table.double("percentile", row: row), try table.double("value_ns", row: row))
                    )
                    metricNames.append(metric)
                }
            }
        }
        run.metrics = Metric.ordered(metricNames)
        run.violationOutcomes = Set(JourneyOutcome.all.filter(\.isViolation).map(\.name))
        if exists(ReportSchema.violationsFile, in: directory) {
            let table = try ReportReader.table(ReportSchema.violationsFile, in: directory)
            try ReportReader.checked(ReportReader.path(ReportSchema.violationsFile, in: directory)) {
                () throws(CSVError) in
                try table.require(ReportSchema.violationsColumns.map(\.name))
                for row in table.rows.indices {
                    func text(_ column: String) throws(CSVError) -> String {
                        CSVWriter.unneutralised(try table.string(column, row: row))
                    }
                    let record = ViolationRecord(
                        strategy: try text("strategy"),
                        seed: try table.unsigned("seed", row: row),
                        journey: try table.unsigned("journey", row: row),
                        scenarioClass: try text("scenario_class"),
                        expected: try text("expected"),
                        actual: try text("actual"),
                        trace: try text("trace")
                    )
                    run.violations.append(record)
                    run.violationOutcomes.insert(record.actual)
                }
            }
        }
        return run
    }

    static func readGate(_ directory: String) throws(ReportError) -> [Check] {
        let table = try ReportReader.table(GateCommand.file, in: directory)
        var checks: [Check] = []
        try ReportReader.checked(ReportReader.path(GateCommand.file, in: directory)) { () throws(CSVError) in
            try table.require(["strategy", "metric", "kind", "baseline", "current", "change_pct", "verdict", "detail"])
            for row in table.rows.indices {
                let change = try table.string("change_pct", row: row)
                let detail = CSVWriter.unneutralised(try table.string("detail", row: row))
                let metric = CSVWriter.unneutralised(try table.string("metric", row: row))
                checks.append(
                    Check(
                        strategy: CSVWriter.unneutralised(try table.string("strategy", row: row)),
                        metric: metric,
                        kind: CSVWriter.unneutralised(try table.string("kind", row: row)),
                        baseline: try table.double("baseline", row: row),
                        current: try table.double("current", row: row),
                        changePercent: change.isEmpty ? nil : try table.double("change_pct", row: row),
                        verdict: CSVWriter.unneutralised(try table.string("verdict", row: row)),
                        detail: detail,
                        interval: interval(in: detail, metric: metric)
                    )
                )
            }
        }
        return checks
    }

    static func readCapacity(_ directory: String) throws(ReportError) -> [CapacityStep] {
        let table = try ReportReader.table(CapacityReport.file, in: directory)
        var steps: [CapacityStep] = []
        try ReportReader.checked(ReportReader.path(CapacityReport.file, in: directory)) { () throws(CSVError) in
            // The probe's columns came later: a sweep written before them still renders.
            try table.require(CapacityReport.columns.map(\.name).filter { !Disturbance.probeColumns.contains($0) })
            for row in table.rows.indices {
                steps.append(
                    CapacityStep(
                        threads: Int(clamping: try table.unsigned("threads", row: row)),
                        offeredPerSecond: try table.double("offered_per_s", row: row),
                        achievedPerSecond: try table.double("achieved_per_s", row: row),
                        p50Nanos: try table.double("p50_ns", row: row),
                        p99Nanos: try table.double("p99_ns", row: row),
                        p999Nanos: try table.double("p999_ns", row: row),
                        dropped: try table.double("dropped", row: row),
                        bytesPerJourney: try table.double("bytes_per_journey", row: row),
                        meetsObjective: try table.string("meets_slo", row: row) == "1",
                        disturbed: try table.string("disturbed", row: row) == "1"
                    )
                )
            }
        }
        return steps
    }
}
