import DeepLinkHarness
import Foundation
import Testing

@Suite struct ShardSpecTests {
    @Test func parsesIndexSlashCount() throws {
        let shard = try ShardSpec.parse("3/4")
        #expect(shard.index == 3)
        #expect(shard.count == 4)
        #expect(shard.description == "3/4")
        #expect(try ShardSpec.parse("0/1") == ShardSpec.whole)
        #expect(try ShardSpec.parse("999999/1000000").index == 999_999)
        #expect(try ShardSpec.parse("007/8").description == "7/8", "leading zeros are digits; the label is canonical")
    }

    @Test(arguments: [
        "", "1", "/", "1/", "/2", "a/b", "1/2/3", " 1/2", "1/2 ", "1 /2", "+1/2", "-1/2", "1/-2", "1.0/2",
        "1/2\n", "0x1/2", "１/２",
    ])
    func malformedShardsAreNamed(_ text: String) {
        #expect(throws: ShardSpecError.malformed(text)) { try ShardSpec.parse(text) }
    }

    @Test func outOfRangeShardsAreNamed() {
        #expect(throws: ShardSpecError.indexOutOfRange("4/4")) { try ShardSpec.parse("4/4") }
        #expect(throws: ShardSpecError.indexOutOfRange("9/3")) { try ShardSpec.parse("9/3") }
        #expect(throws: ShardSpecError.countOutOfRange("0/0")) { try ShardSpec.parse("0/0") }
        #expect(throws: ShardSpecError.countOutOfRange("1/1000001")) { try ShardSpec.parse("1/1000001") }
        let huge = "1/" + String(repeating: "9", count: 40)
        #expect(throws: ShardSpecError.countOutOfRange(huge)) { try ShardSpec.parse(huge) }
        #expect(ShardSpec(index: 2, count: 2) == nil)
        #expect(ShardSpec(index: -1, count: 2) == nil)
        #expect(ShardSpec(index: 0, count: 0) == nil)
    }

    @Test func shardsPartitionTheIndexSpaceExactly() throws {
        for journeys: UInt64 in [0, 1, 7, 1_000, 1_000_003, 10_000_000_000, .max] {
            for count in [1, 2, 3, 4, 7, 1_000, ShardSpec.maximumCount] where UInt64(count) <= max(journeys, 7) {
                var next: UInt64 = 0
                var smallest = UInt64.max
                var largest: UInt64 = 0
                if count <= 1_000 {
                    for index in 0..<count {
                        let range = try #require(ShardSpec(index: index, count: count)).range(ofJourneys: journeys)
                        #expect(range.lowerBound == next, "\(index)/\(count) of \(journeys): gap or overlap")
                        next = range.upperBound
                        // Not `range.count`: an Int, too small for a shard of 2^64 - 1 journeys.
                        let size = range.upperBound - range.lowerBound
                        smallest = min(smallest, size)
                        largest = max(largest, size)
                    }
                    #expect(next == journeys, "\(count) shards of \(journeys) do not cover it")
                    #expect(largest - smallest <= 1, "shard sizes differ by more than one")
                } else {
                    // A million shards: the last ends at the end, neighbours touch, no overflow.
                    let last = try #require(ShardSpec(index: count - 1, count: count)).range(ofJourneys: journeys)
                    #expect(last.upperBound == journeys)
                    let middle = try #require(ShardSpec(index: count / 2, count: count)).range(ofJourneys: journeys)
                    let after = try #require(ShardSpec(index: count / 2 + 1, count: count)).range(ofJourneys: journeys)
                    #expect(middle.upperBound == after.lowerBound)
                }
            }
        }
    }

    @Test func badShardOptionsExitTwoWithOneLine() {
        for (arguments, fragment) in [
            (["--shard", "4/4"], "below n"), (["--shard", "x"], "not i/n"), (["--shard", "0/0"], "n must be"),
            (["--shard", "-1/4"], "not i/n"), (["--shard", "1/4/"], "not i/n"), (["--shard", "0/20"], "empty"),
        ] {
            let result = RunCommandTests.bench(["run", "--journeys", "10", "--quiet"] + arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.err.hasPrefix("error: run: --shard"), "\(arguments): \(result.err)")
            #expect(result.err.contains(fragment), "\(arguments): \(result.err)")
            #expect(result.err.filter { $0 == "\n" }.count == 1, "\(arguments): one line")
        }
    }
}

@Suite struct ShardMergeTests {
    static let journeys = Sanitizer.isActive ? 1_200 : 3_000

    /// Four shards run separately and merged equal one unsharded run of the same seed: outcomes.csv
    /// byte for byte, violations.csv byte for byte, and the count of every latency histogram.
    @Test func fourShardsMergedEqualTheUnshardedRun() throws {
        let root = RunCommandTests.directory("shards")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let common = [
            "--journeys", String(Self.journeys), "--seed", "7", "--threads", "2", "--race-share", "0", "--quiet",
        ]
        let whole = root + "/whole"
        let unsharded = RunCommandTests.bench(["run"] + common + ["--out", whole])
        #expect(unsharded.status == 0, "\(unsharded.err)")
        var shards: [String] = []
        for index in 0..<4 {
            let directory = root + "/shard-\(index)"
            let result = RunCommandTests.bench(["run"] + common + ["--shard", "\(index)/4", "--out", directory])
            #expect(result.status == 0, "\(result.err)")
            shards.append(directory)
            let manifest = try ReportReader.read(directory).manifest
            #expect(manifest.shard == "\(index)/4")
        }
        let merged = root + "/merged"
        let merge = RunCommandTests.bench(["merge", "--out", merged] + shards)
        #expect(merge.status == 0, "\(merge.err)")
        #expect(merge.err.isEmpty, "no missing shards")

        func contents(_ directory: String, _ file: String) throws -> String {
            let data = try #require(FileManager.default.contents(atPath: directory + "/" + file))
            return String(decoding: data, as: UTF8.self)
        }
        #expect(try contents(merged, ReportSchema.outcomesFile) == contents(whole, ReportSchema.outcomesFile))
        #expect(try contents(merged, ReportSchema.violationsFile) == contents(whole, ReportSchema.violationsFile))

        func counts(_ directory: String) throws -> [String: UInt64] {
            let latency = try RunCommandTests.table(directory, ReportSchema.latencyFile)
            var counts: [String: UInt64] = [:]
            for row in latency.rows.indices {
                let key = try latency.string("strategy", row: row) + "/" + latency.string("metric", row: row)
                counts[key] = try latency.unsigned("count", row: row)
            }
            return counts
        }
        let wholeCounts = try counts(whole)
        #expect(!wholeCounts.isEmpty)
        #expect(wholeCounts["core/journey"] == UInt64(Self.journeys))
        #expect(try counts(merged) == wholeCounts)

        let wholeSummary = try RunCommandTests.table(whole, ReportSchema.summaryFile)
        let mergedSummary = try RunCommandTests.table(merged, ReportSchema.summaryFile)
        #expect(mergedSummary.rows.count == wholeSummary.rows.count)
        for row in wholeSummary.rows.indices {
            for column in ["strategy", "journeys", "violations", "routed", "lost", "rejected"] {
                #expect(
                    try mergedSummary.string(column, row: row) == wholeSummary.string(column, row: row),
                    "\(column)"
                )
            }
        }
    }
}

@Suite struct ArrivalReportTests {
    @Test func openLoopShardsMergeTheirArrivals() throws {
        var core = ReportFixtures.strategy("core")
        core.histograms[Metric.journeyCorrected] = core.histograms[Metric.journey]
        var first = ReportFixtures.report(strategies: [core])
        var second = first
        first.manifest.shard = "0/2"
        second.manifest.shard = "1/2"
        first.arrivals = ArrivalReport(offeredPerSecond: 1_000, lateStarts: 3, dropped: 1, maxStartLagNanos: 900)
        second.arrivals = ArrivalReport(offeredPerSecond: 1_000.5, lateStarts: 4, dropped: 0, maxStartLagNanos: 2_000)
        first = ReportFixtures.named(first, journeys: 20_000, ranges: [0..<10_000])
        second = ReportFixtures.named(second, journeys: 20_000, ranges: [10_000..<20_000])
        let merged = try ReportMerger.merge([first, second], sources: ["a", "b"], commandLine: ["merge"])
        #expect(
            merged.arrivals
                == ArrivalReport(offeredPerSecond: 2_000.5, lateStarts: 7, dropped: 1, maxStartLagNanos: 2_000)
        )
        // Written and read back unchanged.
        let directory = ReportFixtures.temporaryDirectory("arrivals")
        defer { ReportFixtures.remove(directory) }
        try ReportWriter.write(merged, to: directory)
        #expect(try ReportReader.read(directory).arrivals == merged.arrivals)
    }

    @Test func aSummaryWithoutTheArrivalColumnsIsRefusedNamingOne() throws {
        let directory = ReportFixtures.temporaryDirectory("no-arrivals")
        defer { ReportFixtures.remove(directory) }
        try ReportWriter.write(ReportFixtures.report(strategies: [ReportFixtures.strategy("core")]), to: directory)
        // Drop the four arrival columns, as a report written before they existed (resealed).
        let path = directory + "/" + ReportSchema.summaryFile
        let table = try CSVTable(parsing: [UInt8](try #require(FileManager.default.contents(atPath: path))))
        let keep = table.header.indices.filter { !ArrivalReport.columns.contains(table.header[$0]) }
        let lines = ([table.header] + table.rows).map { row in keep.map { row[$0] }.joined(separator: ",") }
        try ReportFixtures.doctor(directory, ReportSchema.summaryFile, lines.joined(separator: "\r\n") + "\r\n")
        #expect(throws: ReportError.badCSV(path: path, .missingColumn("offered_per_s"))) {
            try ReportReader.read(directory)
        }
    }
}
