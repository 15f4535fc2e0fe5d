import DeepLinkHarness
import Foundation
import Testing

@Suite struct MergeTests {
    /// A report of journeys `range` whose every number derives from the journey index, so shards
    /// of an index space must merge into exactly the report of the whole space.
    static func report(journeys range: Range<UInt64>, shard: String? = nil) -> RunReport {
        var strategies: [StrategyReport] = []
        for name in ["core", "naive"] {
            var strategy = StrategyReport(name: name, journeys: range.count, wallNanos: UInt64(range.count) * 1000)
            var histograms = Dictionary(uniqueKeysWithValues: Metric.all.map { ($0, Histogram()) })
            for index in range {
                var random = TestRandom(state: index &* 31 &+ (name == "core" ? 0 : 7))
                let classes = ["ios/clip/none", "android/referrer/kill", "android/referrer/=hostile"]
                let scenario = classes[Int(random.next() % 3)]
                var outcome = ["routed", "expired", "rejected:openRedirect", "organic"][Int(random.next() % 4)]
                if name == "naive", index % 97 == 0 { outcome = "duplicated" }
                strategy.outcomeCounts[OutcomeKey(scenarioClass: scenario, outcome: outcome), default: 0] += 1
                if Outcome.isViolation(outcome) {
                    strategy.violations.append(
                        ViolationRecord(
                            strategy: name,
                            seed: 5,
                            journey: index,
                            scenarioClass: scenario,
                            expected: "routed",
                            actual: outcome,
                            trace: "-tap\nlaunch, \"x\""
                        )
                    )
                }
                for metric in Metric.all { histograms[metric]?.record(random.logUniform(maxBits: 30)) }
                strategy.allocatedBytes += 64 + index % 3
            }
            strategy.histograms = histograms
            strategies.append(strategy)
        }
        var manifest = ReportFixtures.manifest()
        manifest.shard = shard
        return RunReport(
            runID: "run-5",
            seed: 5,
            journeys: range.count,
            threads: 2,
            wallNanos: UInt64(range.count) * 1000,
            peakRSSBytes: 1000 + range.lowerBound,
            manifest: manifest,
            strategies: strategies
        )
    }

    @Test func fourShardsMergeIntoTheUnshardedReport() throws {
        let root = ReportFixtures.temporaryDirectory("merge")
        defer { ReportFixtures.remove(root) }
        let total: UInt64 = Sanitizer.isActive ? 8000 : 20_000
        try ReportWriter.write(Self.report(journeys: 0..<total), to: root + "/whole")
        var shardDirectories: [String] = []
        for shard in 0..<UInt64(4) {
            let directory = root + "/shard-\(shard)"
            let range = (total * shard / 4)..<(total * (shard + 1) / 4)
            try ReportWriter.write(Self.report(journeys: range, shard: "\(shard)/4"), to: directory)
            shardDirectories.append(directory)
        }
        var out = ""
        var err = ""
        let io = CommandIO(stdout: { out += $0 }, stderr: { err += $0 })
        let status = DeepLinkBench.main(arguments: ["merge", "--out", root + "/merged"] + shardDirectories, io: io)
        #expect(status == 0, "\(err)")
        #expect(out.contains("merged 4 reports"))

        for file in [
            ReportSchema.outcomesFile, ReportSchema.latencyFile, ReportSchema.histogramsFile,
            ReportSchema.violationsFile,
        ] {
            let whole = try Data(contentsOf: URL(fileURLWithPath: root + "/whole/" + file))
            let merged = try Data(contentsOf: URL(fileURLWithPath: root + "/merged/" + file))
            #expect(whole == merged, "\(file) differs between the merge and the unsharded run")
        }
        let whole = try ReportFixtures.read(root + "/whole", ReportSchema.summaryFile).records
        let merged = try ReportFixtures.read(root + "/merged", ReportSchema.summaryFile).records
        for column in ["journeys", "routed", "duplicated", "violations", "allocated_bytes", "bytes_per_journey"] {
            #expect(whole.map { $0[column] } == merged.map { $0[column] }, "\(column)")
        }
        let manifest = try ReportReader.readManifest(root + "/merged")
        #expect(manifest.mergedFrom == shardDirectories)
        #expect(manifest.shard == nil)
        #expect(manifest.cpuModel == ReportFixtures.manifest().cpuModel)
        #expect(manifest.commandLine.prefix(2) == ["deeplink-bench", "merge"])
    }

    @Test func shardLabelsMustFormOneRun() throws {
        #expect(throws: ReportError.self) { try ReportMerger.checkShards(["0/4", "0/4"], sources: ["a", "b"]) }
        #expect(throws: ReportError.self) { try ReportMerger.checkShards(["0/4", "1/3"], sources: ["a", "b"]) }
        #expect(throws: ReportError.self) { try ReportMerger.checkShards(["4/4"], sources: ["a"]) }
        try ReportMerger.checkShards(["0/4", "3/4", nil], sources: ["a", "b", "c"])
        #expect(ReportMerger.missingShards(["0/4", "3/4"]) == ["1/4", "2/4"])
        #expect(ReportMerger.missingShards([nil, nil]).isEmpty)

        let root = ReportFixtures.temporaryDirectory("merge-shards")

        defer { ReportFixtures.remove(root) }
        try ReportWriter.write(Self.report(journeys: 0..<100, shard: "0/2"), to: root + "/a")
        var err = ""
        let io = CommandIO(stdout: { _ in }, stderr: { err += $0 })
        #expect(DeepLinkBench.main(arguments: ["merge", "--out", root + "/m", root + "/a"], io: io) == 0)
        #expect(err.contains("shards 1/2 are missing"))
        #expect(DeepLinkBench.main(arguments: ["merge", "--out", root + "/m", root + "/a", root + "/a"], io: io) == 2)
        #expect(err.contains("given twice"))
    }

    @Test func overlappingInputsReportEachViolationOnce() throws {
        let report = Self.report(journeys: 0..<1000)
        let merged = try ReportMerger.merge([report, report], sources: ["a", "b"], commandLine: [])
        let naive = try #require(merged.strategies.first { $0.name == "naive" })
        let original = try #require(report.strategies.first { $0.name == "naive" })
        #expect(naive.violations == original.violations)
        #expect(naive.journeys == 2000)
    }

    @Test func readBackEqualsWhatWasWritten() throws {
        let directory = ReportFixtures.temporaryDirectory("roundtrip")
        defer { ReportFixtures.remove(directory) }
        let report = Self.report(journeys: 0..<5000)
        try ReportWriter.write(report, to: directory)
        let read = try ReportReader.read(directory)
        #expect(read == report)
    }

    @Test func mergeRejectsDifferentSeedsAndBadInputByName() throws {
        let root = ReportFixtures.temporaryDirectory("mergebad")
        defer { ReportFixtures.remove(root) }
        var other = Self.report(journeys: 0..<10)
        other.seed = 6
        try ReportWriter.write(Self.report(journeys: 0..<10), to: root + "/a")
        try ReportWriter.write(other, to: root + "/b")
        var err = ""
        let io = CommandIO(stdout: { _ in }, stderr: { err += $0 })
        #expect(DeepLinkBench.main(arguments: ["merge", "--out", root + "/m", root + "/a", root + "/b"], io: io) == 2)
        #expect(err.contains("seed 6"))

        err = ""
        #expect(DeepLinkBench.main(arguments: ["merge", "--out", root + "/m", root + "/nope"], io: io) == 2)
        #expect(err.contains("missing file") && err.contains("nope"))

        err = ""
        let histograms = root + "/a/" + ReportSchema.histogramsFile
        try "strategy,metric,count,min_ns,max_ns\r\n".write(toFile: histograms, atomically: true, encoding: .utf8)
        #expect(DeepLinkBench.main(arguments: ["merge", "--out", root + "/m", root + "/a"], io: io) == 2)
        #expect(err.contains("missing column 'buckets'"), "\(err)")

        err = ""
        #expect(DeepLinkBench.main(arguments: ["merge", root + "/a"], io: io) == 2)
        #expect(err.contains("--out"))
    }
}
