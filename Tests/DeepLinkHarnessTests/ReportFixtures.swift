import DeepLinkHarness
import Foundation
import Testing

/// Report directories for tests: built with the real writer in a fresh temporary directory.
enum ReportFixtures {
    static func temporaryDirectory(_ name: String) -> String {
        let path = NSTemporaryDirectory() + "deeplink-\(name)-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Deletes a directory made by ``temporaryDirectory(_:)``.
    static func remove(_ path: String) { try? FileManager.default.removeItem(atPath: path) }

    static func manifest(cpu: String = "Test CPU @ 1GHz", cores: Int = 2) -> RunManifest {
        RunManifest(
            commit: "0123456789abcdef0123456789abcdef01234567",
            toolchain: RunManifest.toolchain,
            cpuModel: cpu,
            cores: cores,
            allocator: "jemalloc 5.3.0",
            commandLine: ["deeplink-bench", "run", "--out", "dir \"quoted\" \\ back\nslash"],
            startTime: "2026-11-30T22:41:37.123Z"
        )
    }

    /// A strategy with known counts: `journeys` journeys split over outcomes, histograms recorded
    /// from a fixed pattern scaled by `latencyScale`.
    static func strategy(
        _ name: String,
        journeys: Int = 10_000,
        violations: UInt64 = 0,
        bytesPerJourney: UInt64 = 100,
        latencyScale: UInt64 = 1,
        seed: UInt64 = 1
    ) -> StrategyReport {
        var counts: [OutcomeKey: UInt64] = [:]
        let routed = UInt64(journeys) - 200 - violations
        counts[OutcomeKey(scenarioClass: "ios/clip/none", outcome: "routed")] = routed / 2
        counts[OutcomeKey(scenarioClass: "android/referrer/kill", outcome: "routed")] = routed - routed / 2
        counts[OutcomeKey(scenarioClass: "android/referrer/hostile", outcome: "rejected:openRedirect")] = 60
        counts[OutcomeKey(scenarioClass: "android/referrer/hostile", outcome: "rejected:controlBytes")] = 40
        counts[OutcomeKey(scenarioClass: "android/organic/none", outcome: "organic")] = 50
        counts[OutcomeKey(scenarioClass: "ios/clip/ttl", outcome: "expired")] = 30
        counts[OutcomeKey(scenarioClass: "android/notset/none", outcome: "notSet")] = 20
        if violations > 0 {
            counts[OutcomeKey(scenarioClass: "android/referrer/dup", outcome: "duplicated")] = violations
        }
        var histograms: [String: Histogram] = [:]
        for (offset, metric) in Metric.all.enumerated() {
            var histogram = Histogram()
            for index in 0..<UInt64(journeys) {
                histogram.record((100 + index % 1000 * UInt64(offset + 1)) * latencyScale)
            }
            histograms[metric] = histogram
        }
        let records = (0..<min(violations, 1500)).map { index in
            ViolationRecord(
                strategy: name,
                seed: seed,
                journey: 1500 - index,
                scenarioClass: "android/referrer/dup",
                expected: "routed",
                actual: "duplicated",
                trace: "=tap(https://x.example/a,b) -> \"install\"\nlaunch"
            )
        }
        return StrategyReport(
            name: name,
            journeys: journeys,
            wallNanos: 2_000_000_000,
            outcomeCounts: counts,
            histograms: histograms,
            allocatedBytes: bytesPerJourney * UInt64(journeys),
            violations: records
        )
    }

    /// A report of `strategies`; each call's run has its own id unless `runID` is given (the gate
    /// refuses the same run twice).
    static func report(
        strategies: [StrategyReport],
        cpu: String = "Test CPU @ 1GHz",
        runID: String = "run-" + UUID().uuidString.prefix(8)
    )
        -> RunReport
    {
        named(
            RunReport(
                runID: runID,
                seed: 1,
                journeys: strategies.first?.journeys ?? 0,
                threads: 2,
                wallNanos: 3_000_000_000,
                peakRSSBytes: 50_000_000,
                manifest: manifest(cpu: cpu),
                strategies: strategies
            )
        )
    }

    /// `report` with the run identity a real run's manifest carries (``RunResult/identity(runID:)``):
    /// its id, seed and strategies, `journeys` of the whole run (default: its largest strategy's)
    /// and the covered `ranges` (default: all of them), the default mix, race share 0.1, the default
    /// schedule and the loop its arrivals say.
    static func named(_ report: RunReport, journeys: UInt64? = nil, ranges: [Range<UInt64>]? = nil) -> RunReport {
        var report = report
        let total = journeys ?? UInt64(report.strategies.map(\.journeys).max() ?? 0)
        let offered = report.arrivals.offeredPerSecond
        report.manifest.run = RunIdentity(
            runID: report.runID,
            seed: report.seed,
            journeys: total,
            journeyRanges: ranges,
            strategies: report.strategies.map(\.name),
            mixDigest: ScenarioMix.default.digest,
            raceShare: 0.1,
            schedule: ScheduleMode.default.name,
            loop: offered > 0 ? .open(ratePerSecond: offered, maxLagNanos: 1_000_000_000) : .closed
        )
        return report
    }

    /// Seals `directory` again after a test edited its files, as someone who recomputes the
    /// digests would: manifest.json lists the same names with their current sizes and SHA-256, so
    /// what is left to catch an edit is the reader's check of what the files mean.
    static func reseal(_ directory: String) throws {
        let path = directory + "/" + ReportSchema.manifestFile
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let manifest = try JSONDecoder().decode(RunManifest.self, from: data)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let listed = try #require(object["files"] as? [[String: Any]]).compactMap { $0["name"] as? String }
        let files = try listed.map { name in
            let contents = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))
            return SealedFile(name: name, contents: [UInt8](contents))
        }
        let text = try SealedDirectory.manifestJSON(manifest, files: files)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// Replaces `file` of the report in `directory` with `text` and reseals it (``reseal(_:)``).
    static func doctor(_ directory: String, _ file: String, _ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: directory + "/" + file))
        try reseal(directory)
    }

    static func read(_ directory: String, _ file: String) throws -> CSVTable {
        let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + file))
        return try CSVTable(parsing: [UInt8](data))
    }

    /// Runs python3's csv module over `path`, returning (rows, header) or nil if python3 is absent.
    static func pythonCSV(_ path: String) -> (rows: Int, header: [String])? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let script = """
            import csv, sys
            with open(sys.argv[1], newline='', encoding='utf-8') as f:
                rows = list(csv.reader(f, strict=True))
            print(len(rows) - 1)
            print('\\x1f'.join(rows[0]))
            """
        process.arguments = ["python3", "-c", script, path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 2, let rows = Int(lines[0]) else { return nil }
        return (rows, lines[1].split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init))
    }

    static var pythonAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
            || FileManager.default.isExecutableFile(atPath: "/usr/local/bin/python3")
    }
}
