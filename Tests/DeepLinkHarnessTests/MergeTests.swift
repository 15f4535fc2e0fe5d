import DeepLinkHarness
import Foundation
import SanitizerTraits
import Testing

@Suite(.judgesReportFiles) struct MergeTests {
    /// A report of journeys `range` whose every number derives from the journey index, so shards
    /// of an index space must merge into exactly the report of the whole space.
    /// `total` is the whole run's journey count (default: `range`'s end).
    static func report(journeys range: Range<UInt64>, shard: String? = nil, of total: UInt64? = nil) -> RunReport {
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
        let report = RunReport(
            runID: "run-5",
            seed: 5,
            journeys: range.count,
            threads: 2,
            wallNanos: UInt64(range.count) * 1000,
            peakRSSBytes: 1000 + range.lowerBound,
            manifest: manifest,
            strategies: strategies
        )
        return ReportFixtures.named(report, journeys: total ?? range.upperBound, ranges: [range])
    }

    @Test func fourShardsMergeIntoTheUnshardedReport() throws {
        let root = ReportFixtures.temporaryDirectory("merge")
        defer { ReportFixtures.remove(root) }
        let total: UInt64 = Sanitizer.isActive ? 8000 : 20_000
        // Every shard of one run has its thresholds: the merge judges them on the whole.
        let thresholds = [Threshold.noViolations("core"), try Threshold.parse("naive.p99<1s")]
        var unsharded = Self.report(journeys: 0..<total)
        unsharded.thresholds = thresholds
        try ReportWriter.write(unsharded, to: root + "/whole")
        var shardDirectories: [String] = []
        for shard in 0..<UInt64(4) {
            let directory = root + "/shard-\(shard)"
            let range = (total * shard / 4)..<(total * (shard + 1) / 4)
            var part = Self.report(journeys: range, shard: "\(shard)/4", of: total)
            part.thresholds = thresholds
            try ReportWriter.write(part, to: directory)
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
            ReportSchema.violationsFile, ReportSchema.thresholdsFile,
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
        // Each shard's contribution, read from its own report, not derived from the total.
        var contributions: [ShardContribution] = []
        for directory in shardDirectories {
            contributions.append(ShardContribution(try ReportReader.read(directory), source: directory))
        }
        #expect(manifest.shards == contributions)
        #expect(manifest.shards.map(\.shard) == ["0/4", "1/4", "2/4", "3/4"])
        #expect(manifest.shards.map(\.journeys).reduce(0, +) == Int(total))
        let page = try String(contentsOfFile: root + "/merged/report.html", encoding: .utf8)
        #expect(page.contains("id=\"shard-list\""))
        #expect(page.contains("core violations"))
        #expect(manifest.shard == nil)
        #expect(manifest.cpuModel == ReportFixtures.manifest().cpuModel)
        #expect(manifest.commandLine.prefix(2) == ["deeplink-bench", "merge"])
    }

    /// The merged manifest says which stopwatch timed the shards: one value when they agree, each
    /// distinct one when they do not (shards on different machines), none when no shard said.
    @Test func mergedManifestNamesTheShardsOperationClocks() {
        func manifest(_ clock: String?) -> RunManifest {
            var manifest = ReportFixtures.manifest()
            manifest.operationClock = clock
            return manifest
        }
        func combined(_ clocks: [String?]) -> String? {
            ReportMerger.combine(
                clocks.map(manifest),
                sources: clocks.indices.map { "shard-\($0)" },
                commandLine: ["deeplink-bench", "merge"]
            ).operationClock
        }
        let tsc = "tsc, 0.3852 ns per tick"
        #expect(combined([tsc, tsc, tsc]) == tsc)
        #expect(combined([tsc, "CLOCK_MONOTONIC", tsc]) == tsc + " | CLOCK_MONOTONIC")
        #expect(combined([nil, tsc]) == tsc)
        #expect(combined([nil, nil]) == nil)
    }

    @Test func shardsMustTileTheRunExactlyOnce() throws {
        let root = ReportFixtures.temporaryDirectory("merge-shards")
        defer { ReportFixtures.remove(root) }
        try ReportWriter.write(Self.report(journeys: 0..<100, shard: "0/2", of: 200), to: root + "/a")
        try ReportWriter.write(Self.report(journeys: 100..<200, shard: "1/2", of: 200), to: root + "/b")
        try ReportWriter.write(Self.report(journeys: 100..<150, shard: "2/4", of: 200), to: root + "/c")
        try ReportWriter.write(Self.report(journeys: 150..<200, shard: "3/4", of: 200), to: root + "/d")
        func merge(_ arguments: [String]) -> (status: Int32, out: String, err: String) {
            RunCommandTests.bench(["merge", "--no-report", "--out", root + "/m"] + arguments.map { root + "/" + $0 })
        }
        // A missing shard is an error, naming the journeys and the shard …
        let gap = merge(["a"])
        #expect(gap.status == 2)
        #expect(
            gap.err.contains("journeys 100..<200 of the run's 200 are in no input (shards 1/2 missing)"),
            "\(gap.err)"
        )
        #expect(!FileManager.default.fileExists(atPath: root + "/m"))
        // … unless --partial: the result records what it covers, and merges with the rest later.
        let partial = RunCommandTests.bench(["merge", "--no-report", "--partial", "--out", root + "/p", root + "/a"])
        #expect(partial.status == 0, "\(partial.err)")
        #expect(partial.err.contains("covers journeys 0..<100 of 200"))
        #expect(try ReportReader.read(root + "/p").manifest.run?.journeyRanges == [0..<100])
        let completed = RunCommandTests.bench(["merge", "--no-report", "--out", root + "/m", root + "/p", root + "/b"])
        #expect(completed.status == 0, "\(completed.err)")
        // Shards of different n that tile the run exactly are one run.
        #expect(merge(["a", "c", "d"]).status == 0)
        #expect(try ReportReader.read(root + "/m").manifest.run?.journeyRanges == [0..<200])
        // Overlaps, by what the inputs cover (never by path): the same shard twice, a merged run
        // beside one of its shards, a shard beside a shard of other n that overlaps it.
        for (inputs, fragment) in [
            (["a", "a"], "journeys 0..<100 would be counted twice"), (["p", "a", "b"], "both cover them"),
            (["a", "b", "c"], "journeys 100..<150 would be counted twice"),
        ] {
            let result = merge(inputs)
            #expect(result.status == 2, "\(inputs)")
            #expect(result.err.contains(fragment), "\(inputs): \(result.err)")
        }
    }

    @Test func overlappingInputsAreRefused() throws {
        let report = Self.report(journeys: 0..<1000)
        #expect(throws: ReportError.self) {
            try ReportMerger.merge([report, report], sources: ["a", "b"], commandLine: [])
        }
        #expect(ReportMerger.missing([0..<10, 20..<30], of: 40) == [10..<20, 30..<40])
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
        for index in other.strategies.indices {
            other.strategies[index].violations = other.strategies[index].violations.map { violation in
                var violation = violation
                violation.seed = 6
                return violation
            }
        }
        try ReportWriter.write(Self.report(journeys: 0..<10), to: root + "/a")
        try ReportWriter.write(other, to: root + "/b")
        var err = ""
        let io = CommandIO(stdout: { _ in }, stderr: { err += $0 })
        #expect(DeepLinkBench.main(arguments: ["merge", "--out", root + "/m", root + "/a", root + "/b"], io: io) == 2)
        #expect(err.contains("seed 6"))

        err = ""
        #expect(DeepLinkBench.main(arguments: ["merge", "--out", root + "/m", root + "/nope"], io: io) == 2)
        #expect(err.contains("no such directory") && err.contains("nope"))

        err = ""
        try ReportFixtures.doctor(root + "/a", ReportSchema.histogramsFile, "strategy,metric,count,min_ns,max_ns\r\n")
        #expect(DeepLinkBench.main(arguments: ["merge", "--out", root + "/m", root + "/a"], io: io) == 2)
        #expect(err.contains("missing column 'buckets'"), "\(err)")

        err = ""
        #expect(DeepLinkBench.main(arguments: ["merge", root + "/a"], io: io) == 2)
        #expect(err.contains("--out"))
    }
}
