import DeepLinkHarness
import Foundation
import SanitizerTraits
import Testing

@Suite(.startsNoThread) struct ReportWriterTests {
    @Test func writesEveryFileAndTheyParseBack() throws {
        let directory = ReportFixtures.temporaryDirectory("writer")
        defer { ReportFixtures.remove(directory) }
        let report = ReportFixtures.report(strategies: [
            ReportFixtures.strategy("core"), ReportFixtures.strategy("naive", violations: 1200),
        ])
        try ReportWriter.write(report, to: directory)

        let summary = try ReportFixtures.read(directory, ReportSchema.summaryFile)
        #expect(summary.header == ReportSchema.summaryColumns.map(\.name))
        #expect(summary.rows.count == 2)
        let latency = try ReportFixtures.read(directory, ReportSchema.latencyFile)
        #expect(latency.header == ["strategy", "metric", "percentile", "value_ns", "count"])
        #expect(latency.rows.count == 2 * Metric.all.count * ReportSchema.percentiles.count)
        let outcomes = try ReportFixtures.read(directory, ReportSchema.outcomesFile)
        #expect(outcomes.rows.count == 7 + 8)
        let violations = try ReportFixtures.read(directory, ReportSchema.violationsFile)
        #expect(violations.rows.count == ReportSchema.maxViolationRowsPerStrategy)
        let histograms = try ReportFixtures.read(directory, ReportSchema.histogramsFile)
        #expect(histograms.rows.count == 2 * Metric.all.count)

        // The first violations by journey index, the trace neutralised and intact otherwise.
        #expect(try violations.unsigned("journey", row: 0) == 301)
        #expect(try violations.string("trace", row: 0) == "'=tap(https://x.example/a,b) -> \"install\"\nlaunch")
        #expect(try violations.string("strategy", row: 0) == "naive")

        if ReportFixtures.pythonAvailable {
            for (file, table) in [
                (ReportSchema.summaryFile, summary), (ReportSchema.latencyFile, latency),
                (ReportSchema.outcomesFile, outcomes), (ReportSchema.violationsFile, violations),
                (ReportSchema.histogramsFile, histograms),
            ] {
                let parsed = try #require(
                    ReportFixtures.pythonCSV(directory + "/" + file),
                    "python csv failed on \(file)"
                )
                #expect(parsed.rows == table.rows.count, "\(file)")
                #expect(parsed.header == table.header, "\(file)")
            }
        }
    }

    @Test func summaryArithmetic() throws {
        let directory = ReportFixtures.temporaryDirectory("summary")
        defer { ReportFixtures.remove(directory) }
        let report = ReportFixtures.report(
            strategies: [ReportFixtures.strategy("naive", violations: 7)],
            runID: "run-1"
        )
        try ReportWriter.write(report, to: directory)
        let summary = try ReportFixtures.read(directory, ReportSchema.summaryFile)
        let row = summary.records[0]
        #expect(row["run_id"] == "run-1")
        #expect(row["journeys"] == "10000")
        #expect(row["wall_ns"] == "2000000000")
        #expect(row["journeys_per_s"] == "5000")
        #expect(row["duplicated"] == "7")
        #expect(row["violations"] == "7")
        #expect(row["rejected"] == "100")
        #expect(row["organic"] == "50")
        #expect(row["not_set"] == "20")
        #expect(row["expired"] == "30")
        #expect(row["routed"] == String(10_000 - 200 - 7))
        #expect(row["bytes_per_journey"] == "100.00")
        #expect(row["allocated_bytes"] == "1000000")
        #expect(row["peak_rss_bytes"] == "50000000")
        // Every journey is counted once across the outcome columns.
        let outcomeSum = Outcome.summaryColumns.map(\.column).reduce(0 as UInt64) { total, column in
            total + (UInt64(row[column] ?? "") ?? 0)
        }
        #expect(outcomeSum == 10_000)
    }

    @Test func violationsSumTheFourKinds() {
        var strategy = StrategyReport(name: "x", journeys: 10)
        for (outcome, count) in [("misrouted", 1), ("duplicated", 2), ("premature", 3), ("lost", 4), ("routed", 5)] {
            strategy.outcomeCounts[OutcomeKey(scenarioClass: "c", outcome: outcome)] = UInt64(count)
        }
        strategy.outcomeCounts[OutcomeKey(scenarioClass: "d", outcome: "lost")] = 10
        strategy.outcomeCounts[OutcomeKey(scenarioClass: "d", outcome: "somethingNew")] = 1
        #expect(strategy.violationCount == 20)
        #expect(strategy.outcomeTotals["unclassified"] == 1)
    }

    @Test func latencyRowsCarryPercentilesAndCounts() throws {
        let directory = ReportFixtures.temporaryDirectory("latency")
        defer { ReportFixtures.remove(directory) }
        let strategy = ReportFixtures.strategy("core", journeys: 1000)
        try ReportWriter.write(ReportFixtures.report(strategies: [strategy]), to: directory)
        let latency = try ReportFixtures.read(directory, ReportSchema.latencyFile)
        let journeyRows = latency.records.filter { $0["metric"] == "journey" }
        #expect(journeyRows.map { $0["percentile"] ?? "" } == ReportSchema.percentiles)
        let histogram = try #require(strategy.histograms["journey"])
        #expect(journeyRows.first?["value_ns"] == String(histogram.min))
        #expect(journeyRows.last?["value_ns"] == String(histogram.max))
        #expect(journeyRows.allSatisfy { $0["count"] == "1000" })
        #expect(latency.records.first?["metric"] == "parse", "metrics in report order")
    }

    @Test func outputIsDeterministicAndOutcomesSorted() throws {
        let first = ReportFixtures.temporaryDirectory("det1")
        defer { ReportFixtures.remove(first) }
        let second = ReportFixtures.temporaryDirectory("det2")
        defer { ReportFixtures.remove(second) }
        let report = ReportFixtures.report(strategies: [
            ReportFixtures.strategy("core"), ReportFixtures.strategy("naive"),
        ])
        try ReportWriter.write(report, to: first)
        try ReportWriter.write(report, to: second)
        for file in [ReportSchema.summaryFile, ReportSchema.outcomesFile, ReportSchema.latencyFile] {
            let a = try Data(contentsOf: URL(fileURLWithPath: first + "/" + file))
            let b = try Data(contentsOf: URL(fileURLWithPath: second + "/" + file))
            #expect(a == b, "\(file)")
        }
        let outcomes = try ReportFixtures.read(first, ReportSchema.outcomesFile)
        let coreRows = outcomes.rows.filter { $0[0] == "core" }.map { $0[1] + "\u{0}" + $0[2] }
        #expect(coreRows == coreRows.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }

    @Test func manifestIsValidEscapedJSON() throws {
        let directory = ReportFixtures.temporaryDirectory("manifest")
        defer { ReportFixtures.remove(directory) }
        let report = ReportFixtures.report(strategies: [ReportFixtures.strategy("core")])
        try ReportWriter.write(report, to: directory)
        let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/manifest.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["cpu_model"] as? String == "Test CPU @ 1GHz")
        #expect(object["cores"] as? Int == 2)
        let commandLine = try #require(object["command_line"] as? [String])
        #expect(commandLine.last == "dir \"quoted\" \\ back\nslash")
        let decoded = try JSONDecoder().decode(RunManifest.self, from: data)
        #expect(decoded == report.manifest)
        #expect(decoded.run?.runID == report.runID && decoded.run?.strategies == ["core"])
        #expect(object["shard"] == nil && object["merged_from"] == nil, "absent for a plain run")
        let files = try #require(object["files"] as? [[String: Any]])
        #expect(
            files.compactMap { $0["name"] as? String }
                == ReportReader.runFiles + [ReportSchema.summaryJSONFile, ReportSchema.latencyLogFile]
        )
        var shard = ReportFixtures.manifest()
        shard.shard = "1/4"
        shard.mergedFrom = ["a", "b"]
        shard.operationClock = "tsc, 0.3571 ns per tick"
        let encoded = try JSONEncoder().encode(shard)
        #expect(try JSONDecoder().decode(RunManifest.self, from: encoded) == shard)
        let encodedObject = try #require(try JSONSerialization.jsonObject(with: encoded) as? [String: Any])
        #expect(encodedObject["operation_clock"] as? String == "tsc, 0.3571 ns per tick")
        // A manifest written before the operation clock was recorded still reads.
        #expect(try JSONDecoder().decode(RunManifest.self, from: data).operationClock == report.manifest.operationClock)
    }

    @Test func currentManifestDescribesThisHost() {
        let manifest = RunManifest.current(commandLine: ["deeplink-bench", "run"])
        #expect(!manifest.commit.isEmpty)
        #expect(manifest.cores >= 1)
        #expect(!manifest.cpuModel.isEmpty)
        #expect(manifest.toolchain.hasPrefix("Swift compiler"))
        if !Sanitizer.isActive { #expect(manifest.allocator.hasPrefix("jemalloc ")) }
        #expect(manifest.startTime.count == 24 && manifest.startTime.hasSuffix("Z"))
        // Which stopwatch latency.csv's operation metrics used, as this machine's kernel decides.
        let clocksource = try? String(
            contentsOfFile: "/sys/devices/system/clocksource/clocksource0/current_clocksource",
            encoding: .utf8
        )
        #if arch(x86_64)
        let counter = clocksource?.hasPrefix("tsc") == true
        #else
        let counter = false
        #endif
        let clock = manifest.operationClock ?? "absent"
        #expect(
            counter ? clock.hasPrefix("tsc, ") && clock.hasSuffix(" ns per tick") : clock == "CLOCK_MONOTONIC",
            "\(clock)"
        )
        #expect(RunManifest.iso8601(nanosecondsSinceEpoch: 1_000_000_000_123_456_789) == "2001-09-09T01:46:40.123Z")
    }

    @Test func peakRSSIsReported() {
        let current = ResourceUsage.currentRSSBytes()
        let peak = ResourceUsage.peakRSSBytes()
        #expect(peak > 1 << 20)
        #expect(peak >= current, "the high-water mark, read after, is at least the RSS before")
    }

    @Test func unwritableDirectoryIsANamedError() {
        #expect(throws: ReportError.self) {
            try ReportWriter.write(ReportFixtures.report(strategies: []), to: "/proc/definitely/not/here")
        }
        #expect(throws: ReportError.self) {
            var report = ReportFixtures.report(strategies: [])
            report.manifest.run = nil
            // Refused before anything is created.
            try ReportWriter.write(report, to: NSTemporaryDirectory() + "unnamed-\(UUID().uuidString)")
        }
    }

    @Test func decimalFormatting() {
        #expect(ReportSchema.decimal(12.345, digits: 2) == "12.35")
        #expect(ReportSchema.decimal(0.005, digits: 2) == "0.01")
        #expect(ReportSchema.decimal(100, digits: 2) == "100.00")
        #expect(ReportSchema.decimal(4999.5, digits: 0) == "5000")
        #expect(ReportSchema.decimal(-1.5, digits: 1) == "-1.5")
        #expect(ReportSchema.decimal(.nan, digits: 2) == "0")
        #expect(ReportSchema.decimal(1e23, digits: 0) == "1e+23", "no trap beyond Int64")
        #expect(ReportSchema.decimal(-1e300, digits: 2) == "-1e+300")
    }
}

@Suite struct ReportDocumentationTests {
    @Test func readmeDocumentsEveryFileAndColumn() throws {
        // Tests/DeepLinkHarnessTests/ThisFile.swift → repository root → Reports/README.md
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("Reports/README.md"), encoding: .utf8)
        let files = [
            ReportSchema.summaryFile, ReportSchema.latencyFile, ReportSchema.outcomesFile,
            ReportSchema.violationsFile, ReportSchema.histogramsFile, ReportSchema.manifestFile,
            ReportSchema.coverageFile, ReportSchema.thresholdsFile, ReportSchema.summaryJSONFile,
            ReportSchema.latencyLogFile, "gate.csv",
        ]
        for file in files { #expect(readme.contains("## \(file)"), "no section for \(file)") }
        let columns =
            ReportSchema.summaryColumns + ReportSchema.latencyColumns + ReportSchema.outcomesColumns
            + ReportSchema.violationsColumns + ReportSchema.histogramsColumns + ReportSchema.coverageColumns
            + ReportSchema.thresholdsColumns
            + InstructionCount.columns
        for column in columns { #expect(readme.contains("`\(column.name)`"), "column \(column.name) undocumented") }
        for key in [
            "commit", "toolchain", "cpu_model", "cores", "allocator", "command_line", "start_time", "shard",
            "merged_from", "run", "run_id", "seed", "journeys", "journey_ranges", "strategies", "mix_digest",
            "race_share", "schedule", "loop", "rate_per_s", "max_lag_ns", "files", "bytes", "sha256",
        ] {
            #expect(readme.contains("`\(key)`"), "manifest key \(key) undocumented")
        }
        for metric in Threshold.Metric.allCases { #expect(readme.contains("`\(metric.rawValue)`")) }
        for metric in [Metric.journeyRacing, Metric.journeyNonRacing] { #expect(readme.contains("`\(metric)`")) }
        for percentile in ReportSchema.percentiles { #expect(readme.contains("`\(percentile)`")) }
        // Every key of the scenario mix is documented with its source or as an assumption.
        for key in ScenarioMix.keys {
            let short = key.split(separator: ".").last.map { "." + $0 } ?? key
            #expect(readme.contains("`\(key)`") || readme.contains("`\(short)`"), "mix key \(key) undocumented")
        }
    }
}
