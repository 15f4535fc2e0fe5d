import DeepLinkHarness
import Foundation
import Testing

/// Issue 11's report-directory rows: a directory is whole or refused. A write that fails (a full
/// disk, a file in the way) or is killed leaves the older report as it was; a directory that is
/// incomplete, mixed or altered is refused by every reader, naming the file; files that parse but
/// do not hold together are refused too.
@Suite struct ReportIntegrityTests {
    static func report(journeys: Int = 2_000, violations: UInt64 = 0) -> RunReport {
        ReportFixtures.report(strategies: [
            ReportFixtures.strategy("core", journeys: journeys),
            ReportFixtures.strategy("naive", journeys: journeys, violations: violations),
        ])
    }

    /// Storage that stores files until `limit` bytes are used, then fails as a full disk does.
    static func tinyDisk(_ limit: Int) -> ReportStorage {
        let used = Counter()
        return ReportStorage { path, bytes throws(ReportError) in
            guard used.add(bytes.count) <= limit else {
                try ReportStorage.posix.writeFile(path, Array(bytes.prefix(max(0, limit - (used.value - bytes.count)))))
                throw .cannotWrite(path: path, reason: String(cString: strerror(ENOSPC)))
            }
            try ReportStorage.posix.writeFile(path, bytes)
        }
    }

    /// The description of the error `body` throws ("no error" if none).
    static func failure(_ body: () throws -> Void) -> String {
        do {
            try body()
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    static func readers(_ directory: String) -> [(String, Int32, String)] {
        let merge = RunCommandTests.bench(["merge", "--no-report", "--out", directory + "-merged", directory])
        let gate = RunCommandTests.bench(["gate", "--no-report", "--baseline", directory, "--current", directory])
        let page = RunCommandTests.bench(["report", directory])
        return [("merge", merge.status, merge.err), ("gate", gate.status, gate.err), ("report", page.status, page.err)]
    }

    @Test func aFullDiskLeavesTheOlderReportWholeAndReadable() throws {
        let root = ReportFixtures.temporaryDirectory("enospc")
        defer { ReportFixtures.remove(root) }
        let directory = root + "/latest"
        let old = Self.report(journeys: 1_000)
        try ReportWriter.write(old, to: directory)
        let oldSummary = try Data(contentsOf: URL(fileURLWithPath: directory + "/summary.csv"))
        // Fails in the third file (outcomes.csv), and again only at manifest.json.
        let sizes = try ReportWriter.files(Self.report()).map(\.bytes.count)
        for limit in [sizes[0] + sizes[1] + 10, sizes.reduce(0, +) + 5] {
            #expect(throws: ReportError.self) {
                try ReportWriter.write(Self.report(), to: directory, storage: Self.tinyDisk(limit))
            }
            do {
                try ReportWriter.write(Self.report(), to: directory, storage: Self.tinyDisk(limit))
            } catch {
                #expect("\(error)".contains("No space left on device"), "\(error)")
            }
            // The old report, untouched and still whole; nothing left beside it.
            #expect(try Data(contentsOf: URL(fileURLWithPath: directory + "/summary.csv")) == oldSummary)
            #expect(try ReportReader.read(directory).strategies.map(\.journeys) == [1_000, 1_000])
            #expect(try FileManager.default.contentsOfDirectory(atPath: root) == ["latest"])
        }
        // With room, the new report replaces the old one whole.
        try ReportWriter.write(Self.report(), to: directory)
        #expect(try ReportReader.read(directory).strategies.map(\.journeys) == [2_000, 2_000])
        #expect(try FileManager.default.contentsOfDirectory(atPath: root) == ["latest"])
    }

    /// What a killed run leaves: an unfinished hidden sibling, never read, and the older report as
    /// it was; and what an unsealed writer killed half way leaves, refused by every reader.
    @Test func aKilledRunLeavesNothingAnyoneReads() throws {
        let root = ReportFixtures.temporaryDirectory("killed")
        defer { ReportFixtures.remove(root) }
        try ReportWriter.write(Self.report(), to: root + "/latest")
        try FileManager.default.createDirectory(
            atPath: root + "/.latest.tmp-1234-abcd",
            withIntermediateDirectories: true
        )
        let partial = try ReportWriter.files(Self.report(journeys: 400))
        try Data(partial[0].bytes).write(to: URL(fileURLWithPath: root + "/.latest.tmp-1234-abcd/summary.csv"))
        #expect(try ReportReader.read(root + "/latest").strategies.map(\.journeys) == [2_000, 2_000])
        #expect(try GateInput.directories(root + "/latest") == [root + "/latest"])

        // A directory with report files but no manifest.json: incomplete, for every reader.
        try FileManager.default.createDirectory(atPath: root + "/half", withIntermediateDirectories: true)
        for file in partial.prefix(3) {
            try Data(file.bytes).write(to: URL(fileURLWithPath: root + "/half/" + file.name))
        }
        for (reader, status, err) in Self.readers(root + "/half") {
            #expect(status == 2, "\(reader)")
            #expect(err.contains("not a complete report directory: no manifest.json"), "\(reader): \(err)")
        }
    }

    @Test func mixedOrAlteredDirectoriesAreRefusedNamingTheFile() throws {
        let root = ReportFixtures.temporaryDirectory("mixed")
        defer { ReportFixtures.remove(root) }
        try ReportWriter.write(Self.report(journeys: 1_000), to: root + "/old")
        try ReportWriter.write(Self.report(), to: root + "/new")
        // A file of another run copied in (a mix of old and new): its digest is not the one recorded.
        try FileManager.default.removeItem(atPath: root + "/new/histograms.csv")
        try FileManager.default.copyItem(atPath: root + "/old/histograms.csv", toPath: root + "/new/histograms.csv")
        for (reader, status, err) in Self.readers(root + "/new") {
            #expect(status == 2, "\(reader)")
            #expect(err.contains("new/histograms.csv: changed after its report was written"), "\(reader): \(err)")
        }
        // One byte changed, same size.
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: root + "/old/summary.csv")))
        let digit = try #require(bytes.lastIndex { $0 >= UInt8(ascii: "1") && $0 <= UInt8(ascii: "8") })
        bytes[digit] += 1
        try Data(bytes).write(to: URL(fileURLWithPath: root + "/old/summary.csv"))
        #expect(throws: ReportError.self) { try ReportReader.read(root + "/old") }
        do {
            _ = try ReportReader.read(root + "/old")
        } catch {
            #expect("\(error)".contains("summary.csv: changed after") && "\(error)".contains("SHA-256"), "\(error)")
        }
        // A listed file deleted.
        try ReportWriter.write(Self.report(), to: root + "/third")
        try FileManager.default.removeItem(atPath: root + "/third/coverage.csv")
        let missing = Self.failure { _ = try ReportReader.read(root + "/third") }
        #expect(missing.contains("coverage.csv is missing (manifest.json lists it)"), "\(missing)")
    }

    @Test func aDirectoryWhereAFileShouldBe() throws {
        let root = ReportFixtures.temporaryDirectory("in-the-way")
        defer { ReportFixtures.remove(root) }
        // Reading: a directory in place of a listed file.
        try ReportWriter.write(Self.report(), to: root + "/run")
        try FileManager.default.removeItem(atPath: root + "/run/latency.csv")
        try FileManager.default.createDirectory(atPath: root + "/run/latency.csv", withIntermediateDirectories: false)
        let read = Self.failure { _ = try ReportReader.read(root + "/run") }
        #expect(read.contains("latency.csv is a directory where the listed file should be"), "\(read)")
        // Writing: an output directory holding a directory (or anything but report files) is never
        // replaced, and a file where the output directory should be is refused; nothing is deleted.
        try FileManager.default.createDirectory(atPath: root + "/user/notes", withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: root + "/user/summary.csv"))
        let refused = Self.failure { try ReportWriter.write(Self.report(), to: root + "/user") }
        #expect(refused.contains("it holds 'notes', which is not a report file"), "\(refused)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: root + "/user/summary.csv")) == Data("mine".utf8))
        try Data("a file".utf8).write(to: URL(fileURLWithPath: root + "/file"))
        let file = RunCommandTests.bench(["merge", "--out", root + "/file", root + "/other"])
        #expect(file.status == 2)
        #expect(file.err.contains("it exists and is a regular file, not a directory"), "\(file.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root).sorted() == ["file", "run", "user"])
    }

    @Test func reportsFromBeforeSealingAreRefusedWithWhatToDo() throws {
        let root = ReportFixtures.temporaryDirectory("legacy")
        defer { ReportFixtures.remove(root) }
        try ReportWriter.write(Self.report(), to: root + "/run")
        // manifest.json as the writer wrote it before this change: no file list, no run identity.
        var manifest = try ReportReader.readManifest(root + "/run")
        manifest.run = nil
        try Data(try ReportWriter.manifestJSON(manifest).utf8).write(
            to: URL(fileURLWithPath: root + "/run/manifest.json")
        )
        let gate = GateTests.gate(["--baseline", root + "/run", "--current", root + "/run"])
        #expect(gate.status == 2)
        #expect(gate.err.contains("manifest.json lists no files (written before report directories were sealed"))
        #expect(gate.err.contains("run it again"))
    }

    @Test func countsMustBeNonNegativeAndAddUp() throws {
        let root = ReportFixtures.temporaryDirectory("meaning")
        defer { ReportFixtures.remove(root) }
        /// The gate's error after `edit` changed rows (given each row and its index) of `file`.
        func refused(
            _ edit: (inout [String], CSVTable, Int) throws -> Void,
            file: String = ReportSchema.summaryFile
        )
            throws -> String
        {
            let directory = root + "/r-\(UUID().uuidString.prefix(6))"
            try ReportWriter.write(Self.report(violations: 3), to: directory)
            let table = try ReportFixtures.read(directory, file)
            let columns =
                file == ReportSchema.summaryFile ? ReportSchema.summaryColumns : ReportSchema.histogramsColumns
            var writer = CSVWriter(columns: columns)
            for (index, row) in table.rows.enumerated() {
                var row = row
                try edit(&row, table, index)
                try writer.append(row)
            }
            try ReportFixtures.doctor(directory, file, writer.text)
            let result = GateTests.gate(["--baseline", directory, "--current", directory])
            #expect(result.status == 2)
            #expect(!result.out.contains("PASS"))
            return result.err
        }
        // misrouted 7, lost -7: the sum is kept, the count is not one.
        let negative = try refused { row, table, index in
            guard index == 0 else { return }
            row[try table.columnIndex("misrouted")] = "7"
            row[try table.columnIndex("lost")] = "-7"
        }
        #expect(negative.contains("column 'lost' on line 2: '-7' is not a count"), "\(negative)")
        // misrouted 7 taken from routed: summary.csv contradicts outcomes.csv.
        let moved = try refused { row, table, index in
            guard index == 0 else { return }
            row[try table.columnIndex("misrouted")] = "7"
            let routed = try table.columnIndex("routed")
            row[routed] = String((UInt64(row[routed]) ?? 0) - 7)
        }
        #expect(moved.contains("column 'routed'") && moved.contains("but the report's other files give"), "\(moved)")
        // 400 digits: not read as infinity.
        let huge = try refused { row, table, index in
            guard index == 0 else { return }
            row[try table.columnIndex("offered_per_s")] = String(repeating: "9", count: 400)
        }
        #expect(huge.contains("is not a finite number"), "\(huge)")
        // Two core rows: the second would mask the first.
        let twice = try refused { row, table, index in
            guard index == 1 else { return }
            row[try table.columnIndex("strategy")] = "core"
        }
        #expect(twice.contains("line 3: strategy 'core' appears twice (one row per strategy)"), "\(twice)")
        // A histogram that does not hold its strategy's journeys.
        let histogram = try refused(
            { row, table, _ in
                guard row[try table.columnIndex("strategy")] == "core",
                    row[try table.columnIndex("metric")] == "journey"
                else { return }
                var short = Histogram()
                short.record(100, times: 1_999)
                row[try table.columnIndex("count")] = "1999"
                row[try table.columnIndex("min_ns")] = "100"
                row[try table.columnIndex("max_ns")] = "100"
                row[try table.columnIndex("buckets")] = short.encodedBuckets
            },
            file: ReportSchema.histogramsFile
        )
        #expect(
            histogram.contains("journey holds 1999 values, but 2000 of its 2000 journeys were timed"),
            "\(histogram)"
        )
    }

    @Test func theManifestNamesTheRun() throws {
        let root = ReportFixtures.temporaryDirectory("identity")
        defer { ReportFixtures.remove(root) }
        let run = RunCommandTests.bench([
            "run", "--journeys", "300", "--seed", "9", "--threads", "1", "--strategies", "core,naive",
            "--race-share", "0.2", "--shard", "1/3", "--quiet", "--no-report", "--out", root + "/shard",
        ])
        #expect(run.status == 0, "\(run.err)")
        let manifest = try ReportReader.readManifest(root + "/shard")
        let identity = try #require(manifest.run)
        let summary = try ReportFixtures.read(root + "/shard", ReportSchema.summaryFile)
        #expect(identity.runID == summary.records.first?["run_id"])
        #expect(identity.seed == 9)
        #expect(identity.journeys == 300)
        #expect(identity.journeyRanges == [100..<200])
        #expect(identity.strategies == ["core", "naive"])
        #expect(identity.mixDigest == ScenarioMix.default.digest)
        #expect(identity.raceShare == 0.2)
        #expect(identity.loop == .closed)
        #expect(manifest.shard == "1/3")
        #expect(!manifest.commit.isEmpty)
        let object = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: root + "/shard/manifest.json"))
            )
                as? [String: Any]
        )
        let files = try #require(object["files"] as? [[String: Any]])
        #expect(files.compactMap { $0["name"] as? String } == ReportReader.runFiles + ReportReader.newerRunFiles)
        for file in files {
            let name = try #require(file["name"] as? String)
            let data = try Data(contentsOf: URL(fileURLWithPath: root + "/shard/" + name))
            #expect(file["bytes"] as? Int == data.count)
            #expect(file["sha256"] as? String == SHA256Digest.hex(of: [UInt8](data)))
        }
        // A known digest, so the hash is SHA-256 and not something else.
        #expect(
            SHA256Digest.hex(of: Array("abc".utf8))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        )
    }
}

/// A running total shared with a `@Sendable` storage closure.
final class Counter: @unchecked Sendable {
    private var total = 0
    private let lock = NSLock()

    /// Adds `amount`; returns the new total.
    func add(_ amount: Int) -> Int {
        lock.withLock {
            total += amount
            return total
        }
    }

    var value: Int { lock.withLock { total } }
}
