import DeepLinkHarness
import Foundation
import Testing

/// `run --duration` (a time-based run) and `run --warmup` (journeys counted nowhere).
@Suite struct RunDurationTests {
    /// A time-based run reports the journeys it ran as an ordinary run of that many: summary.csv,
    /// the manifest's journeys and its one range from 0 agree, and the directory reads back whole.
    @Test func aTimedRunReportsTheJourneysItRan() throws {
        let out = RunCommandTests.directory("duration")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = RunCommandTests.bench([
            "run", "--duration", "0.2", "--seed", "3", "--threads", "2", "--strategies", "core,naive", "--out", out,
            "--quiet", "--no-report",
        ])
        #expect(result.status == 0, "\(result.err)")
        let report = try ReportReader.read(out)
        let identity = try #require(report.manifest.run)
        let journeys = try #require(report.strategies.first?.journeys)
        #expect(journeys > 0)
        #expect(report.strategies.allSatisfy { $0.journeys == journeys })
        #expect(identity.journeys == UInt64(journeys))
        #expect(identity.journeyRanges == [0..<UInt64(journeys)])
        // Whole chunks: the deadline stops claims, never a claimed chunk.
        #expect(journeys % Runner.chunkSize == 0)
        #expect(report.manifest.commandLine.contains("--duration"))
        #expect(result.out.contains(ReportFormat.grouped(Double(journeys)) + " journeys, seed 3"))
    }

    /// With --rate the run's arrivals are rate × duration.
    @Test func anOpenLoopDurationIsRateTimesSeconds() throws {
        let out = RunCommandTests.directory("duration-open")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = RunCommandTests.bench([
            "run", "--duration", "0.25", "--rate", "2000", "--threads", "1", "--strategies", "core", "--out", out,
            "--quiet", "--no-report",
        ])
        #expect(result.status == 0, "\(result.err)")
        #expect(try ReportReader.read(out).manifest.run?.journeys == 500)
    }

    @Test(arguments: [
        ["--duration", "1", "--journeys", "100"], ["--duration", "1", "--shard", "0/2"], ["--duration", "0"],
        ["--duration", "-1"], ["--duration", "ten"], ["--duration", "1e9"], ["--warmup", "-1"],
        ["--warmup", "x"],
    ])
    func badDurationsAndWarmUpsAreUsageErrors(_ extra: [String]) {
        let result = RunCommandTests.bench(["run", "--strategies", "naive", "--quiet"] + extra)
        #expect(result.status == 2, "\(extra)")
        #expect(result.err.hasPrefix("error: run: "), "\(result.err)")
    }

    /// The warm-up changes nothing counted: outcomes.csv and coverage.csv are byte for byte those
    /// of a run without it (racing journeys and all), and no strategy counts more journeys.
    @Test func theWarmUpLeavesTheCountedJourneysAsTheyWere() throws {
        let root = ReportFixtures.temporaryDirectory("warmup")
        defer { ReportFixtures.remove(root) }
        var files: [[String: Data]] = []
        for warmup in ["0", "1500"] {
            let out = root + "/w" + warmup
            let result = RunCommandTests.bench([
                "run", "--journeys", "3000", "--seed", "7", "--threads", "2", "--warmup", warmup, "--out", out,
                "--quiet", "--no-report",
            ])
            #expect(result.status == 0, "\(result.err)")
            let report = try ReportReader.read(out)
            #expect(report.strategies.allSatisfy { $0.journeys == 3_000 })
            var contents: [String: Data] = [:]
            for name in [ReportSchema.outcomesFile, ReportSchema.coverageFile, ReportSchema.violationsFile] {
                contents[name] = try Data(contentsOf: URL(fileURLWithPath: out + "/" + name))
            }
            files.append(contents)
        }
        for name in files[0].keys { #expect(files[0][name] == files[1][name], "\(name) differs") }
    }
}
