import DeepLinkHarness
import Foundation
import SanitizerTraits
import Testing

/// Issue 11's merge rows: inputs that are not one run, not disjoint, or whose sums pass 64 bits,
/// and an output that is an input, are refused by name (exit 2) and nothing is written.
@Suite(.judgesReportFiles) struct MergeRefusalTests {
    static func merge(_ root: String, _ inputs: [String], out: String = "m") -> (status: Int32, err: String) {
        let result = RunCommandTests.bench(
            ["merge", "--no-report", "--out", root + "/" + out] + inputs.map { root + "/" + $0 }
        )
        return (result.status, result.err)
    }

    /// Shard `index` of 2 of a 200-journey run (``MergeTests/report(journeys:shard:of:)``).
    static func shard(_ index: UInt64) -> RunReport {
        MergeTests.report(journeys: (index * 100)..<(index * 100 + 100), shard: "\(index)/2", of: 200)
    }

    @Test func shardsOfDifferentWorkloadsAreRefusedNamingTheDifference() throws {
        let root = ReportFixtures.temporaryDirectory("merge-workload")
        defer { ReportFixtures.remove(root) }
        try ReportWriter.write(Self.shard(0), to: root + "/s0")
        var cases: [(String, RunReport, String)] = []
        var journeys = Self.shard(1)
        journeys.manifest.run?.journeys = 400
        journeys.manifest.shard = nil
        journeys.manifest.mergedFrom = ["elsewhere"]
        cases.append(("journeys", journeys, "journeys 400 vs 200"))
        var race = Self.shard(1)
        race.manifest.run?.raceShare = 0.25
        cases.append(("race", race, "race share 0.25 vs 0.1"))
        var schedule = Self.shard(1)
        schedule.manifest.run?.schedule = "random"
        cases.append(("schedule", schedule, "schedule random vs pct:depth=3"))
        var mix = Self.shard(1)
        var other = ScenarioMix.default
        other.ttlSeconds = 60
        mix.manifest.run?.mixDigest = other.digest
        cases.append(("mix", mix, "scenario mix (digest"))
        var strategies = Self.shard(1)
        strategies.strategies.removeLast()
        strategies = ReportFixtures.named(strategies, journeys: 200, ranges: [100..<200])
        cases.append(("strategies", strategies, "strategies core vs core,naive"))
        var loop = Self.shard(1)
        loop.manifest.run?.loop = .open(ratePerSecond: 100, maxLagNanos: 1_000)
        loop.arrivals.offeredPerSecond = 100
        for index in loop.strategies.indices {
            loop.strategies[index].histograms[Metric.journeyCorrected] =
                loop.strategies[index].histograms[Metric.journey]
        }
        cases.append(("loop", loop, "loop open at 100.0/s (max lag 1000 ns) vs closed"))
        var commit = Self.shard(1)
        commit.manifest.commit = "fedcba9876543210fedcba9876543210fedcba98"
        cases.append(("commit", commit, "written by commit fedcba98"))
        for (name, report, fragment) in cases {
            try ReportWriter.write(report, to: root + "/" + name)
            let result = Self.merge(root, ["s0", name])
            #expect(result.status == 2, "\(name)")
            #expect(result.err.contains(fragment), "\(name): \(result.err)")
            #expect(result.err.contains("not shards of one run") || name == "commit", "\(name): \(result.err)")
        }
        #expect(!FileManager.default.fileExists(atPath: root + "/m"))
    }

    @Test func inputsAreIdentifiedByRunNotByPath() throws {
        let root = ReportFixtures.temporaryDirectory("merge-identity")
        defer { ReportFixtures.remove(root) }
        try ReportWriter.write(MergeTests.report(journeys: 0..<200), to: root + "/whole")
        try ReportWriter.write(Self.shard(0), to: root + "/s0")
        try ReportWriter.write(Self.shard(1), to: root + "/s1")
        try FileManager.default.copyItem(atPath: root + "/whole", toPath: root + "/copy")
        #expect(Self.merge(root, ["s0", "s1"], out: "merged").status == 0)
        for inputs in [
            ["whole", "whole"], ["whole", "copy"], ["whole", "s0"], ["merged", "s1"], ["s0", "s1", "s1"],
        ] {
            let result = Self.merge(root, inputs)
            #expect(result.status == 2, "\(inputs)")
            #expect(result.err.contains("would be counted twice"), "\(inputs): \(result.err)")
        }
    }

    @Test func theOutputMayNotBeAnInput() throws {
        let root = ReportFixtures.temporaryDirectory("merge-out")
        defer { ReportFixtures.remove(root) }
        try ReportWriter.write(Self.shard(0), to: root + "/s0")
        try ReportWriter.write(Self.shard(1), to: root + "/s1")
        let before = try Data(contentsOf: URL(fileURLWithPath: root + "/s0/summary.csv"))
        for out in ["s0", "s0/", "s0/inner", "."] {
            let result = RunCommandTests.bench(["merge", "--out", root + "/" + out, root + "/s0", root + "/s1"])
            #expect(result.status == 2, "\(out)")
            #expect(result.err.contains("merge never writes over its inputs"), "\(out): \(result.err)")
        }
        // Through a symbolic link too.
        try FileManager.default.createSymbolicLink(atPath: root + "/link", withDestinationPath: root + "/s1")
        #expect(Self.merge(root, ["s0", "s1"], out: "link").status == 2)
        #expect(try Data(contentsOf: URL(fileURLWithPath: root + "/s0/summary.csv")) == before)
        _ = try ReportReader.read(root + "/s0")
        _ = try ReportReader.read(root + "/s1")
    }

    @Test func aShardClaimingAllOf64BitsOfJourneysIsANamedError() throws {
        let root = ReportFixtures.temporaryDirectory("merge-huge")
        defer { ReportFixtures.remove(root) }
        try ReportWriter.write(Self.shard(0), to: root + "/s0")
        try ReportWriter.write(Self.shard(1), to: root + "/s1")
        // summary.csv says 18446744073709551615 journeys (digests recomputed, as a forger would).
        let table = try ReportFixtures.read(root + "/s1", ReportSchema.summaryFile)
        var writer = CSVWriter(columns: ReportSchema.summaryColumns)
        for row in table.rows {
            var row = row
            row[try table.columnIndex("journeys")] = String(UInt64.max)
            try writer.append(row)
        }
        try ReportFixtures.doctor(root + "/s1", ReportSchema.summaryFile, writer.text)
        let result = Self.merge(root, ["s0", "s1"])
        #expect(result.status == 2)
        #expect(result.err.contains("18446744073709551615 journeys"), "\(result.err)")
        #expect(result.err.contains("summary.csv"))
    }

    /// Two shards each honestly holding 2^63 − 1 journeys (every count, histogram and byte total
    /// consistent): the merged counts pass 2^64 and merge names it instead of wrapping or trapping.
    @Test func sumsBeyond64BitsAreNamedNotWrapped() throws {
        let root = ReportFixtures.temporaryDirectory("merge-overflow")
        defer { ReportFixtures.remove(root) }
        let half = UInt64(Int.max)
        func huge(_ index: UInt64, journeys: UInt64, allocated: UInt64) -> RunReport {
            var histogram = Histogram()
            histogram.record(1_000, times: journeys)
            // Wall time and journeys such that the derived rates stay plain decimals.
            let strategy = StrategyReport(
                name: "core",
                journeys: Int(journeys),
                wallNanos: 1_000_000_000_000,
                outcomeCounts: [OutcomeKey(scenarioClass: "ios/clip/none", outcome: Outcome.routed): journeys],
                histograms: [Metric.journey: histogram],
                allocatedBytes: allocated
            )
            var manifest = ReportFixtures.manifest()
            manifest.shard = "\(index)/2"
            let report = RunReport(
                runID: "huge",
                seed: 1,
                journeys: Int(journeys),
                threads: 1,
                wallNanos: 1_000,
                peakRSSBytes: 1,
                manifest: manifest,
                strategies: [strategy]
            )
            let range = ShardSpec(index: Int(index), count: 2)!.range(ofJourneys: .max)
            return ReportFixtures.named(report, journeys: .max, ranges: [range])
        }
        // Journeys: 2^63 - 1 and 2^63 - 1 fit each shard and the whole run, not an Int total.
        try ReportWriter.write(huge(0, journeys: half, allocated: 1), to: root + "/j0")
        try ReportWriter.write(huge(1, journeys: half, allocated: 1), to: root + "/j1")
        let journeys = Self.merge(root, ["j0", "j1"])
        #expect(journeys.status == 2)
        #expect(journeys.err.contains("does not fit in 64 bits"), "\(journeys.err)")
        // Histogram counts and allocated bytes near 2^64 on their own.
        try ReportWriter.write(huge(0, journeys: 1_000_000, allocated: .max - 5), to: root + "/b0")
        try ReportWriter.write(huge(1, journeys: 1_000_000, allocated: 10), to: root + "/b1")
        let bytes = Self.merge(root, ["b0", "b1"])
        #expect(bytes.status == 2)
        #expect(bytes.err.contains("core allocated_bytes") && bytes.err.contains("64 bits"), "\(bytes.err)")
        var first = huge(0, journeys: 10, allocated: 1)
        var second = huge(1, journeys: 10, allocated: 1)
        var big = Histogram()
        big.record(5, times: .max - 3)
        first.strategies[0].histograms[Metric.parse] = big
        second.strategies[0].histograms[Metric.parse] = big
        let merged = Result { try ReportMerger.merge([first, second], sources: ["h0", "h1"], commandLine: []) }
        guard case .failure(let error) = merged else {
            Issue.record("histogram counts past 2^64 merged")
            return
        }
        #expect("\(error)".contains("histogram parse count"), "\(error)")
    }
}
