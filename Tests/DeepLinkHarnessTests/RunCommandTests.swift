import DeepLinkHarness
import Foundation
import Testing

@Suite struct RunCommandTests {
    static func bench(_ arguments: [String]) -> (status: Int32, out: String, err: String) {
        var out = ""
        var err = ""
        let io = CommandIO(stdout: { out += $0 }, stderr: { err += $0 })
        let status = DeepLinkBench.main(arguments: arguments, io: io)
        return (status, out, err)
    }

    static func directory(_ name: String) -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("run-\(name)-\(UInt32.random(in: 0...UInt32.max))").path
        return path
    }

    static func table(_ directory: String, _ file: String) throws -> CSVTable {
        let data = try #require(FileManager.default.contents(atPath: directory + "/" + file))
        return try CSVTable(parsing: [UInt8](data))
    }

    @Test func realRunWritesReportsThatParseBack() throws {
        let out = Self.directory("full")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = Self.bench([
            "run", "--journeys", "20000", "--seed", "5", "--threads", "2", "--out", out, "--quiet",
        ])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.err.isEmpty)
        for kind in StrategyKind.allCases { #expect(result.out.contains(kind.rawValue)) }

        let summary = try Self.table(out, ReportSchema.summaryFile)
        #expect(summary.rows.count == StrategyKind.allCases.count)
        let outcomeColumns = Outcome.summaryColumns.map(\.column)
        let outcomes = try Self.table(out, ReportSchema.outcomesFile)
        for row in 0..<summary.rows.count {
            let strategy = try summary.string("strategy", row: row)
            #expect(try summary.unsigned("journeys", row: row) == 20_000)
            #expect(try summary.unsigned("seed", row: row) == 5)
            var total: UInt64 = 0
            for column in outcomeColumns { total += try summary.unsigned(column, row: row) }
            #expect(total == 20_000, "\(strategy) outcomes do not add up")
            let violations = try Outcome.violations
                .reduce(UInt64(0)) { $0 + (try summary.unsigned(Outcome.summaryColumn(for: $1), row: row)) }
            #expect(try summary.unsigned("violations", row: row) == violations)
            // outcomes.csv agrees with summary.csv.
            var perClass: UInt64 = 0
            for outcomeRow in 0..<outcomes.rows.count where try outcomes.string("strategy", row: outcomeRow) == strategy
            {
                perClass += try outcomes.unsigned("count", row: outcomeRow)
            }
            #expect(perClass == 20_000)
        }

        let latency = try Self.table(out, ReportSchema.latencyFile)
        #expect(latency.rows.contains { $0.contains("journey") })
        let manifest = try #require(FileManager.default.contents(atPath: out + "/" + ReportSchema.manifestFile))
        #expect(String(decoding: manifest, as: UTF8.self).contains("\"--journeys\""))

        // Every violation row replays exactly: same trace, same expected and actual outcome.
        let violations = try Self.table(out, ReportSchema.violationsFile)
        let naiveRows = (0..<violations.rows.count).filter { (try? violations.string("strategy", row: $0)) == "naive" }
        #expect(!naiveRows.isEmpty)
        for row in naiveRows.prefix(25) + naiveRows.suffix(5) {
            let journey = try violations.unsigned("journey", row: row)
            var command = try ReplayCommand(
                arguments: ArgumentParser.parse(
                    ["--seed", "5", "--journey", String(journey), "--strategies", "naive"],
                    options: ReplayCommand.configuration.options
                )
            )
            let replay = command.replay()
            #expect(replay.journey.trace == CSVWriter.unneutralised(try violations.string("trace", row: row)))
            #expect(replay.expectation.outcome.name == (try violations.string("expected", row: row)))
            #expect(replay.actual.first?.1.name == (try violations.string("actual", row: row)))
            var text = ""
            let io = CommandIO(stdout: { text += $0 }, stderr: { _ in })
            #expect(try command.run(io: io) == 0)
            #expect(text.contains("naive:"))
        }
    }

    @Test func outcomesAreByteIdenticalAcrossRunsAndThreadCounts() throws {
        var files: [Data] = []
        for threads in ["1", "2", "3"] {
            let out = Self.directory("same-\(threads)")
            defer { try? FileManager.default.removeItem(atPath: out) }
            let result = Self.bench([
                "run", "--journeys", "6000", "--seed", "9", "--threads", threads, "--race-share", "0", "--out", out,
                "--quiet",
            ])
            #expect(result.status == 0, "\(result.err)")
            files.append(try #require(FileManager.default.contents(atPath: out + "/" + ReportSchema.outcomesFile)))
        }
        #expect(files[0].count > 100)
        #expect(files[0] == files[1])
        #expect(files[1] == files[2])
    }

    @Test func replayJSONNamesEveryStrategy() throws {
        let result = Self.bench(["replay", "--seed", "5", "--journey", "17", "--json"])
        #expect(result.status == 0)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any]
        )
        #expect(object["journey"] as? Int == 17)
        let actual = try #require(object["actual"] as? [String: Any])
        #expect(Set(actual.keys) == Set(StrategyKind.allCases.map(\.rawValue)))
        #expect((object["trace"] as? String)?.isEmpty == false)
    }

    @Test func badArgumentsExitTwo() {
        #expect(Self.bench(["run", "--strategies", "core,bogus"]).status == 2)
        #expect(Self.bench(["run", "--race-share", "1.5"]).status == 2)
        #expect(Self.bench(["run", "--journeys", "0"]).status == 2)
        #expect(Self.bench(["replay", "--seed", "1"]).status == 2)
        #expect(Self.bench(["replay", "--journey", "x", "--seed", "1"]).status == 2)
    }

    /// `--threads` (and capacity's `--max-threads`) above the documented cap: exit 2, one line.
    @Test func threadsAboveTheCapAreRefused() throws {
        #expect(RunCommand.maximumThreads == 256)
        for arguments in [
            ["run", "--journeys", "10", "--threads", "1024"], ["run", "--journeys", "10", "--threads", "257"],
            ["run", "--journeys", "10", "--threads", "0"], ["capacity", "--max-threads", "1024"],
        ] {
            let result = Self.bench(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.err.filter { $0 == "\n" }.count == 1, "\(arguments): \(result.err)")
            #expect(result.err.contains("expected an integer from 1 to 256"), "\(arguments): \(result.err)")
        }
        let parsed = try ArgumentParser.parse(["--threads", "256"], options: RunCommand.configuration.options)
        #expect(try RunCommand(arguments: parsed).configurationToRun.threads == 256)
    }

    /// Per-thread memory, measured on the real binary: peak RSS of 1 and 17 worker threads over a
    /// small run. Each worker used to hold 20 histograms (6.1 MB); strategies that time no
    /// operations now share one empty set, leaving about 3.2 MB.
    @Test(.enabled(if: !Sanitizer.isActive && BenchProcess.binary != nil))
    func perThreadMemoryStaysSmall() throws {
        let root = ReportFixtures.temporaryDirectory("thread-memory")
        defer { ReportFixtures.remove(root) }
        var peak: [Int: UInt64] = [:]
        for threads in [1, 17] {
            let out = root + "/t\(threads)"
            let run = try BenchProcess.run([
                "run", "--journeys", "4000", "--threads", "\(threads)", "--quiet", "--no-report", "--out", out,
            ])
            try #require(run.status == 0, "\(run.err)")
            peak[threads] = try Self.table(out, ReportSchema.summaryFile).unsigned("peak_rss_bytes", row: 0)
        }
        let perThread = Double(Int64(peak[17] ?? 0) - Int64(peak[1] ?? 0)) / 16
        #expect(perThread < 4.5 * 1_048_576, "\(perThread / 1_048_576) MB per thread")
    }
}
