import DeepLinkHarness
import Foundation
import SanitizerTraits
import Testing

/// What the gate says when it cannot judge (issue 35): why, with the noise it measured; what it
/// judged instead; never a bare PASS; `detail` and `change_pct` of one sign; a new `--out`; and a
/// directory of another command named as what it is.
@Suite(.judgesReportFiles) struct GateDoubtTests {
    static let otherRunnable = "3.59 other runnable threads on average, 0 cores free (threshold +0.5)"

    static func report(disturbed: Bool = false, latencyScale: UInt64 = 1) -> RunReport {
        var report = GateTests.standardReport(latencyScale: latencyScale)
        if disturbed {
            report.manifest.disturbance = Disturbance(
                otherRunnable: 3.59,
                disturbed: true,
                reasons: [Self.otherRunnable]
            )
        }
        return report
    }

    @Test func aDisturbedGateSaysWhyWhatItJudgedAndNeverABarePass() throws {
        let root = ReportFixtures.temporaryDirectory("gate-doubt")
        defer { ReportFixtures.remove(root) }
        try ReportWriter.write(Self.report(), to: root + "/base")
        try ReportWriter.write(Self.report(disturbed: true, latencyScale: 3), to: root + "/cur")
        let result = GateTests.gate(["--baseline", root + "/base", "--current", root + "/cur", "--no-report"])
        #expect(result.status == 0, "inconclusive never fails: \(result.out)\(result.err)")
        let lines = result.out.split(separator: "\n").map(String.init)
        let why = try #require(lines.first { $0.hasPrefix("  all ") }, "\(result.out)")
        #expect(why.contains("disturbed: 1 of 1 current runs (\(Self.otherRunnable))"), "\(why)")
        let instead = try #require(lines.first { $0.hasPrefix("judged instead: ") }, "\(result.out)")
        #expect(instead.contains("hard checks") && instead.contains("no timing") && instead.contains("make gate-hard"))
        let verdict = try #require(lines.last { $0.hasPrefix("gate: ") })
        #expect(verdict.hasPrefix("gate: PASS (hard checks only; "), "\(verdict)")
        #expect(verdict.contains("timing checks inconclusive: the machine disturbed a run"), "\(verdict)")
        // The same runs, quiet: the single-run cause, not the disturbance.
        try ReportWriter.write(Self.report(latencyScale: 3), to: root + "/quiet")
        let quiet = GateTests.gate(["--baseline", root + "/base", "--current", root + "/quiet", "--no-report"])
        #expect(!quiet.out.contains("disturbed"), "\(quiet.out)")
        #expect(quiet.out.contains("one run per side: no noise measured"), "\(quiet.out)")
        // Every timing check judged: the verdict stands alone.
        for repetition in 1...3 {
            try ReportWriter.write(Self.report(), to: root + "/b/rep-\(repetition)")
            try ReportWriter.write(Self.report(), to: root + "/c/rep-\(repetition)")
        }
        let judged = GateTests.gate(["--baseline", root + "/b", "--current", root + "/c", "--no-report"])
        #expect(judged.status == 0, "\(judged.out)")
        #expect(!judged.out.contains("inconclusive:") && !judged.out.contains("judged instead"), "\(judged.out)")
        #expect(judged.out.contains("gate: PASS (") && judged.out.contains("gate: PASS (26 checks; baseline: 3"))
    }

    @Test func theVerdictWordSaysWhatItRestsOn() {
        typealias Gate = RegressionGate
        #expect(Gate.verdict(of: [(.hard, .pass), (.timing, .pass)]) == "PASS")
        #expect(Gate.verdict(of: [(.hard, .pass), (.timing, .inconclusive)]).hasPrefix("PASS (hard checks only; 1 "))
        #expect(Gate.verdict(of: [(.hard, .pass)]) == "PASS (hard checks only; no timing checks)")
        #expect(
            Gate.verdict(of: [(.timing, .pass), (.timing, .inconclusive)], doubts: ["x"])
                == "PASS (1 of 2 timing checks judged; 1 inconclusive: x)"
        )
        #expect(Gate.verdict(of: [(.hard, .fail), (.timing, .inconclusive)]) == "FAIL")
    }

    /// A noisy pair of sides: the interval straddles the tolerance, and the text gives both sides'
    /// measured spread against it.
    @Test func noiseStraddlingTheToleranceIsMeasuredInTheText() {
        let gate = RegressionGate(timeTolerance: 0.1)
        let noisy = gate.timing(
            strategy: "core",
            metric: "journeys_per_s",
            higherIsBetter: true,
            baseline: [1000, 1400, 700, 1300, 900],
            current: [800, 1300, 950, 700, 1200]
        )
        #expect(noisy.verdict == .inconclusive)
        guard case .noisy(let note) = noisy.doubt else {
            Issue.record("\(String(describing: noisy.doubt))")
            return
        }
        #expect(note.contains("straddles tolerance 10.0%: baseline spread ±35.0%, current spread ±31.6%"), "\(note)")
        let text = GateCommand.doubts([noisy])
        #expect(text.contains("  core journeys_per_s: 95% CI of the change ["), "\(text)")
        #expect(text.contains("judged instead: 0 hard checks"), "\(text)")
    }

    /// Runs on machines of different speed: the text gives the probes' ratio against the threshold, once.
    @Test func aHostSpeedDifferenceIsMeasuredInTheText() {
        func run(_ rate: Double, probe: Double) -> RegressionGate.RunValues {
            var values = RegressionGate.RunValues()
            values.strategies = ["core"]
            values.summary["core"] = ["journeys_per_s": rate, "bytes_per_journey": 0, "violations": 0]
            values.latency["core"] = ["journey/p99": 1000]
            values.hostSpeedNanos = probe
            return values
        }
        let checks = RegressionGate().evaluate(
            baseline: [run(1000, probe: 8), run(1010, probe: 8)],
            current: [run(150, probe: 15.2), run(151, probe: 15.2)]
        )
        let text = GateCommand.doubts(checks)
        #expect(text.contains("  all 2: host-speed probes 1.9x apart: host speed differs"), "\(text)")
        #expect(text.contains("threshold 1.5x"), "\(text)")
        #expect(RegressionGate.verdict(of: checks).contains("host speed differs from the baseline's"))
    }

    /// A throughput drop reads as a drop in `detail`, as in `change_pct`, with the worse direction.
    @Test func detailAndChangeAgreeInSign() throws {
        let gate = RegressionGate(timeTolerance: 0.1)
        let base = [1000.0, 1010, 990, 1005, 995]
        let drop = gate.timing(
            strategy: "core",
            metric: "journeys_per_s",
            higherIsBetter: true,
            baseline: base,
            current: [150, 152, 148, 151, 149]
        )
        #expect(drop.verdict == .fail)
        #expect((drop.changePercent ?? 0) < -84)
        #expect(drop.detail.hasPrefix("95% CI of the change [-8"), "\(drop.detail)")
        #expect(drop.detail.contains("(lower is worse)") && !drop.detail.contains("+8"), "\(drop.detail)")
        let single = gate.timing(
            strategy: "core",
            metric: "journeys_per_s",
            higherIsBetter: true,
            baseline: [1000],
            current: [150]
        )
        #expect(single.detail.contains("change -85.0% (lower is worse) beyond tolerance"), "\(single.detail)")
        let slower = gate.timing(
            strategy: "core",
            metric: "journey/p99",
            higherIsBetter: false,
            baseline: base,
            current: [2000, 2010, 1990, 2005, 1995]
        )
        #expect(slower.detail.hasPrefix("95% CI of the change [+9"), "\(slower.detail)")
        #expect(slower.detail.contains("(higher is worse)"), "\(slower.detail)")
        // The page reads the interval back with the change's sign, old gate.csv files included.
        let page = try #require(ReportData.interval(in: drop.detail, metric: "journeys_per_s"))
        #expect(page.low < -80 && page.high < -80)
        let old = try #require(
            ReportData.interval(in: "95% CI of regression [+80.0%, +90.0%]", metric: "journeys_per_s")
        )
        #expect(old.low == -90 && old.high == -80)
    }

    @Test func aNewOutDirectoryIsCreated() throws {
        let root = ReportFixtures.temporaryDirectory("gate-newout")
        defer { ReportFixtures.remove(root) }
        try ReportWriter.write(Self.report(), to: root + "/base")
        try ReportWriter.write(Self.report(), to: root + "/cur")
        let out = root + "/new/nested"
        let result = GateTests.gate(["--baseline", root + "/base", "--current", root + "/cur", "--out", out])
        #expect(result.status == 0, "\(result.out)\(result.err)")
        #expect(try ReportFixtures.read(out, GateCommand.file).records.count > 0)
        #expect(FileManager.default.fileExists(atPath: out + "/" + ReportCommand.htmlFile))
    }

    /// Another command's directory is named as what it is, not as a killed write.
    @Test func anotherCommandsDirectoryIsNamed() throws {
        let root = ReportFixtures.temporaryDirectory("gate-other")
        defer { ReportFixtures.remove(root) }
        try ReportWriter.write(Self.report(), to: root + "/run")
        try FileManager.default.createDirectory(atPath: root + "/capacity", withIntermediateDirectories: true)
        try Data("threads\n".utf8).write(to: URL(fileURLWithPath: root + "/capacity/" + CapacityReport.file))
        try Data("{}".utf8).write(to: URL(fileURLWithPath: root + "/capacity/" + ReportSchema.manifestFile))
        try FileManager.default.createDirectory(atPath: root + "/gate", withIntermediateDirectories: true)
        try Data("x\n".utf8).write(to: URL(fileURLWithPath: root + "/gate/" + GateCommand.file))
        for (directory, what) in [("capacity", "is a capacity sweep (capacity.csv"), ("gate", "is a gate's output")] {
            for arguments in [
                ["--baseline", root + "/" + directory, "--current", root + "/run"],
                ["--baseline", root + "/run", "--current", root + "/" + directory, "--out", root + "/o"],
            ] {
                let result = GateTests.gate(arguments)
                #expect(result.status == 2)
                #expect(
                    result.err.contains(what) && result.err.contains("not a run's report directory"),
                    "\(result.err)"
                )
                #expect(!result.err.contains("killed") && !result.err.contains("disk"), "\(result.err)")
            }
        }
    }
}
