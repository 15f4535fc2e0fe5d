import DeepLinkHarness
import Foundation
import SanitizerTraits
import Testing

@Suite(.judgesReportFiles) struct GateTests {
    struct Outcome {
        var status: Int32
        var out: String
        var err: String
    }

    static func gate(_ arguments: [String]) -> Outcome {
        var out = ""
        var err = ""
        let io = CommandIO(stdout: { out += $0 }, stderr: { err += $0 })
        let status = DeepLinkBench.main(arguments: ["gate"] + arguments, io: io)
        return Outcome(status: status, out: out, err: err)
    }

    static func standardReport(
        coreViolations: UInt64 = 0,
        coreBytes: UInt64 = 100,
        cpu: String = "Test CPU @ 1GHz",
        latencyScale: UInt64 = 1
    ) -> RunReport {
        ReportFixtures.report(
            strategies: [
                ReportFixtures.strategy(
                    "core",
                    journeys: 2000,
                    violations: coreViolations,
                    bytesPerJourney: coreBytes,
                    latencyScale: latencyScale
                ),
                ReportFixtures.strategy("naive", journeys: 2000, violations: 40),
            ],
            cpu: cpu
        )
    }

    @Test func identicalRunsPass() throws {
        let root = ReportFixtures.temporaryDirectory("gate-same")
        defer { ReportFixtures.remove(root) }
        try ReportWriter.write(Self.standardReport(), to: root + "/base")
        try ReportWriter.write(Self.standardReport(), to: root + "/cur")
        let result = Self.gate(["--baseline", root + "/base", "--current", root + "/cur"])
        #expect(result.status == 0, "\(result.out)\(result.err)")
        #expect(result.out.contains("gate: PASS"))
        #expect(result.out.contains("bytes_per_journey"))
        #expect(result.out.contains("journey/p99"))
        let csv = try ReportFixtures.read(root + "/cur", "gate.csv")
        #expect(csv.header == ["strategy", "metric", "kind", "baseline", "current", "change_pct", "verdict", "detail"])
        #expect(csv.records.filter { $0["kind"] == "hard" }.allSatisfy { $0["verdict"] == "pass" })
        // One run per side: no noise estimate, so timing is inconclusive (and does not fail).
        let timing = csv.records.filter { $0["kind"] == "timing" }
        #expect(!timing.isEmpty && timing.allSatisfy { $0["verdict"] == "inconclusive" })
        #expect(timing.allSatisfy { ($0["detail"] ?? "").contains("within tolerance") })
        #expect(csv.records.contains { $0["strategy"] == "core" && $0["metric"] == "violations" })
        // naive's violations are expected, not gated.
        #expect(!csv.records.contains { $0["strategy"] == "naive" && $0["metric"] == "violations" })
    }

    @Test func oneCoreViolationFails() throws {
        let root = ReportFixtures.temporaryDirectory("gate-violation")
        defer { ReportFixtures.remove(root) }
        try ReportWriter.write(Self.standardReport(), to: root + "/base")
        try ReportWriter.write(Self.standardReport(coreViolations: 1), to: root + "/cur")
        let result = Self.gate(["--baseline", root + "/base", "--current", root + "/cur", "--hard-only"])
        #expect(result.status == 1)
        #expect(result.out.contains("gate: FAIL: core violations"))
    }

    /// core's racing journeys allocate nothing (the race machinery is set up before the run): one
    /// byte fails the hard gate, whatever the baseline allocated.
    @Test func aRacingByteOfCoreFails() throws {
        let root = ReportFixtures.temporaryDirectory("gate-racing-bytes")
        defer { ReportFixtures.remove(root) }
        var baseline = Self.standardReport()
        baseline.strategies[0].costs.racingJourneys = 200
        baseline.strategies[0].costs.racingBytes = 4_000
        var current = Self.standardReport()
        current.strategies[0].costs.racingJourneys = 200
        current.strategies[0].costs.racingBytes = 1
        try ReportWriter.write(baseline, to: root + "/base")
        try ReportWriter.write(current, to: root + "/cur")
        let result = Self.gate(["--baseline", root + "/base", "--current", root + "/cur", "--hard-only"])
        #expect(result.status == 1)
        #expect(result.out.contains("gate: FAIL: core racing_bytes"))
        current.strategies[0].costs.racingBytes = 0
        try ReportWriter.write(current, to: root + "/zero")
        let zero = Self.gate(["--baseline", root + "/base", "--current", root + "/zero", "--hard-only"])
        #expect(zero.status == 0, "\(zero.out)\(zero.err)")
        let csv = try ReportFixtures.read(root + "/zero", "gate.csv")
        let check = csv.records.first { $0["strategy"] == "core" && $0["metric"] == "racing_bytes" }
        #expect(check?["verdict"] == "pass")
    }

    @Test func aDoctoredViolationCountIsRefusedNotMasked() throws {
        let root = ReportFixtures.temporaryDirectory("gate-doctored")
        defer { ReportFixtures.remove(root) }
        try ReportWriter.write(Self.standardReport(), to: root + "/base")
        try ReportWriter.write(Self.standardReport(), to: root + "/cur")
        // Doctor the file by hand, digests recomputed: one lost journey, the violations column left at 0.
        let table = try ReportFixtures.read(root + "/cur", ReportSchema.summaryFile)
        var writer = CSVWriter(columns: ReportSchema.summaryColumns)
        for (index, row) in table.rows.enumerated() {
            var row = row
            if index == 0 { row[try table.columnIndex("lost")] = "1" }
            try writer.append(row)
        }
        try ReportFixtures.doctor(root + "/cur", ReportSchema.summaryFile, writer.text)
        let result = Self.gate(["--baseline", root + "/base", "--current", root + "/cur"])
        #expect(result.status == 2, "\(result.out)")
        #expect(result.err.contains("column 'lost': '1', but the report's other files give '0'"), "\(result.err)")
        #expect(!result.out.contains("PASS"))
    }

    @Test func moreBytesPerJourneyFails() throws {
        let root = ReportFixtures.temporaryDirectory("gate-bytes")
        defer { ReportFixtures.remove(root) }
        try ReportWriter.write(Self.standardReport(), to: root + "/base")
        try ReportWriter.write(Self.standardReport(coreBytes: 101), to: root + "/cur")
        let result = Self.gate(["--baseline", root + "/base", "--current", root + "/cur"])
        #expect(result.status == 1)
        #expect(result.out.contains("gate: FAIL: core bytes_per_journey"))
        // Fewer bytes is fine.
        let better = Self.gate(["--baseline", root + "/cur", "--current", root + "/base", "--out", root])
        #expect(better.status == 0, "\(better.out)")
    }

    /// Names in report files reach the terminal escaped as `inspect` escapes them: an ESC or a
    /// CR/LF in a strategy name can neither recolour the terminal nor forge a table row.
    @Test func namesFromReportsAreEscapedInTheTable() throws {
        let root = ReportFixtures.temporaryDirectory("gate-escape")
        defer { ReportFixtures.remove(root) }
        let hostile = "x\u{1B}[2J\r\ngate: PASS"
        let report = ReportFixtures.report(strategies: [
            ReportFixtures.strategy("core", journeys: 2000),
            ReportFixtures.strategy(hostile, journeys: 2000, bytesPerJourney: 100),
        ])
        var worse = report
        worse.runID += "-worse"  // another run of the same workload
        worse.strategies[1].allocatedBytes *= 2
        try ReportWriter.write(report, to: root + "/base")
        try ReportWriter.write(worse, to: root + "/cur")
        let result = Self.gate(["--baseline", root + "/base", "--current", root + "/cur", "--no-report"])
        #expect(result.status == 1, "\(result.err)")
        let escaped = JSONString.escaped(hostile)
        #expect(escaped == #"x\u001b[2J\r\ngate: PASS"#)
        #expect(!result.out.unicodeScalars.contains("\u{1B}") && !result.out.contains("\r"))
        #expect(result.out.split(separator: "\n").contains { $0.hasPrefix(escaped + "  bytes_per_journey") })
        #expect(
            result.out.hasSuffix("gate: FAIL: \(escaped) bytes_per_journey (baseline: 1 run(s), current: 1 run(s))\n")
        )
        // gate.csv keeps the name as it is (CSV quoting carries it).
        let csv = try ReportFixtures.read(root + "/cur", "gate.csv")
        #expect(csv.records.contains { $0["strategy"] == hostile })
    }

    @Test func missingColumnExitsTwoNamingIt() throws {
        let root = ReportFixtures.temporaryDirectory("gate-column")
        defer { ReportFixtures.remove(root) }
        try ReportWriter.write(Self.standardReport(), to: root + "/base")
        try ReportWriter.write(Self.standardReport(), to: root + "/cur")
        let table = try ReportFixtures.read(root + "/cur", ReportSchema.summaryFile)
        let drop = try table.columnIndex("bytes_per_journey")
        var writer = CSVWriter(
            columns: ReportSchema.summaryColumns.enumerated().filter { $0.offset != drop }.map(\.element)
        )
        for row in table.rows { try writer.append(row.enumerated().filter { $0.offset != drop }.map(\.element)) }
        try ReportFixtures.doctor(root + "/cur", ReportSchema.summaryFile, writer.text)
        let result = Self.gate(["--baseline", root + "/base", "--current", root + "/cur"])
        #expect(result.status == 2)
        #expect(result.err.contains("missing column 'bytes_per_journey'"), "\(result.err)")
        #expect(result.err.contains("summary.csv"))
    }

    @Test func inputErrorsExitTwo() throws {
        let root = ReportFixtures.temporaryDirectory("gate-input")
        defer { ReportFixtures.remove(root) }
        try ReportWriter.write(Self.standardReport(), to: root + "/base")
        let missing = Self.gate(["--baseline", root + "/base", "--current", root + "/nothing"])
        #expect(missing.status == 2 && missing.err.contains("no such report directory"), "\(missing.err)")
        try ReportWriter.write(Self.standardReport(), to: root + "/cur")
        try ReportFixtures.doctor(root + "/cur", ReportSchema.latencyFile, "strategy,metric\n\"unterminated\n")
        let bad = Self.gate(["--baseline", root + "/base", "--current", root + "/cur"])
        #expect(bad.status == 2 && bad.err.contains("latency.csv") && bad.err.contains("unterminated"), "\(bad.err)")
        #expect(Self.gate(["--current", root + "/cur"]).status == 2)
        #expect(Self.gate(["--baseline", "a", "--current", "b", "--time-tolerance", "x"]).status == 2)
    }

    @Test func hostMismatchIsRefusedUnlessAllowed() throws {
        let root = ReportFixtures.temporaryDirectory("gate-host")
        defer { ReportFixtures.remove(root) }
        try ReportWriter.write(Self.standardReport(), to: root + "/base")
        try ReportWriter.write(Self.standardReport(cpu: "Other CPU"), to: root + "/cur")
        let refused = Self.gate(["--baseline", root + "/base", "--current", root + "/cur"])
        #expect(refused.status == 2)
        #expect(refused.err.contains("host mismatch") && refused.err.contains("Other CPU"))
        let allowed = Self.gate(["--baseline", root + "/base", "--current", root + "/cur", "--allow-host-mismatch"])
        #expect(allowed.status == 0)
        #expect(allowed.err.contains("WARNING: HOST MISMATCH") && allowed.out.contains("WARNING: HOST MISMATCH"))
    }

    @Test func hardChecksRunOnAnyHost() throws {
        let root = ReportFixtures.temporaryDirectory("gate-host-hard")
        defer { ReportFixtures.remove(root) }
        try ReportWriter.write(Self.standardReport(), to: root + "/base")
        try ReportWriter.write(Self.standardReport(cpu: "Other CPU"), to: root + "/cur")
        let hard = Self.gate(["--baseline", root + "/base", "--current", root + "/cur", "--hard-only"])
        #expect(hard.status == 0, "\(hard.err)")
        #expect(hard.out.contains("host differs") && hard.out.contains("Other CPU"))
        #expect(!hard.err.contains("host mismatch"))
    }

    @Test func singleRunTimingRegressionIsInconclusiveNotFailing() throws {
        let root = ReportFixtures.temporaryDirectory("gate-single")
        defer { ReportFixtures.remove(root) }
        try ReportWriter.write(Self.standardReport(), to: root + "/base")
        try ReportWriter.write(Self.standardReport(latencyScale: 3), to: root + "/cur")
        let result = Self.gate(["--baseline", root + "/base", "--current", root + "/cur"])
        #expect(result.status == 0)
        let csv = try ReportFixtures.read(root + "/cur", "gate.csv")
        let p99 = try #require(csv.records.first { $0["strategy"] == "core" && $0["metric"] == "journey/p99" })
        #expect(p99["verdict"] == "inconclusive")
        #expect(p99["detail"]?.contains("beyond tolerance") == true)
        // 3× the latency, within the histograms' 0.1 % resolution.
        let change = try #require(Double(p99["change_pct"] ?? ""))
        #expect(abs(change - 200) < 0.5, "\(change)")
    }

    @Test func coreViolationsFailEvenWithoutACoreBaseline() {
        var baseline = RegressionGate.RunValues()
        baseline.strategies = ["naive"]
        baseline.summary["naive"] = ["journeys_per_s": 10, "bytes_per_journey": 5, "violations": 3]
        var current = baseline
        current.strategies.append("core")
        current.summary["core"] = ["journeys_per_s": 10, "bytes_per_journey": 5, "violations": 2]
        let checks = RegressionGate(hardOnly: true).evaluate(baseline: [baseline], current: [current])
        #expect(checks.contains { $0.strategy == "core" && $0.metric == "violations" && $0.verdict == .fail })
        #expect(!checks.contains { $0.strategy == "naive" && $0.verdict == .fail })
    }

    @Test func directoriesOfRepetitionsAreReadAndGetTheGateFile() throws {
        let root = ReportFixtures.temporaryDirectory("gate-dirs")
        defer { ReportFixtures.remove(root) }
        for repetition in 1...3 {
            try ReportWriter.write(Self.standardReport(), to: root + "/base/rep-\(repetition)")
            try ReportWriter.write(Self.standardReport(latencyScale: 2), to: root + "/cur/rep-\(repetition)")
        }
        let result = Self.gate(["--baseline", root + "/base", "--current", root + "/cur"])
        #expect(result.status == 1, "identical repetitions, latency doubled: a certain regression")
        #expect(result.out.contains("baseline: 3 run(s), current: 3 run(s)"))
        let csv = try ReportFixtures.read(root + "/cur", "gate.csv")
        let p50 = try #require(csv.records.first { $0["strategy"] == "core" && $0["metric"] == "journey/p50" })
        #expect(p50["verdict"] == "fail" && p50["detail"]?.contains("95% CI") == true)
        for repetition in 1...3 {
            try ReportWriter.write(Self.standardReport(), to: root + "/same/rep-\(repetition)")
        }
        let listed = Self.gate([
            "--baseline", root + "/base/rep-1," + root + "/base/rep-2", "--current", root + "/same",
        ])
        #expect(listed.status == 0, "\(listed.out)\(listed.err)")
        #expect(listed.out.contains("baseline: 2 run(s), current: 3 run(s)"))
    }

    @Test func repetitionsGiveBootstrapVerdicts() {
        let gate = RegressionGate(timeTolerance: 0.1)
        let base = [1000.0, 1010, 990, 1005, 995]
        let slower = gate.timing(
            strategy: "core",
            metric: "journey/p99",
            higherIsBetter: false,
            baseline: base,
            current: [1500, 1510, 1490, 1520, 1480]
        )
        #expect(slower.verdict == .fail, "\(slower.detail)")
        let same = gate.timing(
            strategy: "core",
            metric: "journey/p99",
            higherIsBetter: false,
            baseline: base,
            current: [1003, 998, 1007, 992, 1001]
        )
        #expect(same.verdict == .pass, "\(same.detail)")
        let noisy = gate.timing(
            strategy: "core",
            metric: "journey/p99",
            higherIsBetter: false,
            baseline: base,
            current: [900, 1400, 1000, 1300, 1150]
        )
        #expect(noisy.verdict == .inconclusive, "\(noisy.detail)")
        let throughputDrop = gate.timing(
            strategy: "core",
            metric: "journeys_per_s",
            higherIsBetter: true,
            baseline: base,
            current: [500, 505, 495, 510, 490]
        )
        #expect(throughputDrop.verdict == .fail)
        let throughputGain = gate.timing(
            strategy: "core",
            metric: "journeys_per_s",
            higherIsBetter: true,
            baseline: base,
            current: [2000, 2005, 1995, 2010, 1990]
        )
        #expect(throughputGain.verdict == .pass)
    }

    @Test func repetitionsRunTheBaselineCommandLine() throws {
        let root = ReportFixtures.temporaryDirectory("gate-reps")
        defer { ReportFixtures.remove(root) }
        var baseline = Self.standardReport()
        baseline.manifest.commandLine = ["deeplink-bench", "run", "--journeys", "2000", "--out", "old", "--quiet"]
        try ReportWriter.write(baseline, to: root + "/base")
        let parsed = try ArgumentParser.parse(
            ["--baseline", root + "/base", "--current", root + "/reps", "--repetitions", "3", "--hard-only"],
            options: GateCommand.configuration.options
        )
        var command = try GateCommand(arguments: parsed)
        let calls = CallLog()
        command.launcher = { arguments in
            calls.append(arguments)
            guard let out = arguments.last else { return 3 }
            return (try? ReportWriter.write(GateTests.standardReport(), to: out)) == nil ? 4 : 0
        }
        var out = ""
        let io = CommandIO(stdout: { out += $0 }, stderr: { _ in })
        #expect(try command.run(io: io) == 0, "\(out)")
        let recorded = calls.all
        #expect(recorded.count == 3)
        #expect(recorded.first == ["run", "--journeys", "2000", "--quiet", "--out", root + "/reps/rep-1"])
        #expect(out.contains("current: 3 run(s)"))
        #expect(FileManager.default.fileExists(atPath: root + "/reps/gate.csv"))
    }
}

/// The launcher's calls, collected across the `@Sendable` boundary.
final class CallLog: @unchecked Sendable {
    private var calls: [[String]] = []
    private let lock = NSLock()

    func append(_ call: [String]) { lock.withLock { calls.append(call) } }

    var all: [[String]] { lock.withLock { calls } }
}
