import DeepLinkHarness
import Foundation
import SanitizerTraits
import Testing

/// Issue 11's gate rows: what is not comparable, the same run twice, a directory that is neither a
/// run nor repetitions, leftover repetitions, and reports that do not hold together are refused
/// (exit 2, named) instead of judged.
@Suite(.judgesReportFiles) struct GateRefusalTests {
    static func write(_ report: RunReport, _ directory: String) throws {
        try ReportWriter.write(report, to: directory)
    }

    @Test func runsOfDifferentWorkloadsAreNotCompared() throws {
        let root = ReportFixtures.temporaryDirectory("gate-workload")
        defer { ReportFixtures.remove(root) }
        try Self.write(GateTests.standardReport(), root + "/base")
        var cases: [(String, RunReport, String)] = []
        var seed = GateTests.standardReport()
        seed.seed = 2
        for index in seed.strategies.indices {
            seed.strategies[index].violations = seed.strategies[index].violations.map {
                var violation = $0
                violation.seed = 2
                return violation
            }
        }
        cases.append(("seed", seed, "seed 2 vs 1"))
        var journeys = GateTests.standardReport()
        journeys.manifest.run?.journeys = 4000
        journeys.manifest.run?.journeyRanges = [0..<4000]
        cases.append(("journeys", journeys, "journeys 4000 vs 2000"))
        var mix = GateTests.standardReport()
        var other = ScenarioMix.default
        other.ttlSeconds = 3600
        mix.manifest.run?.mixDigest = other.digest
        cases.append(("mix", mix, "scenario mix"))
        let strategies = ReportFixtures.report(strategies: [ReportFixtures.strategy("core", journeys: 2000)])
        cases.append(("strategies", strategies, "strategies core vs core,naive"))
        var open = GateTests.standardReport()
        open.arrivals.offeredPerSecond = 5_000
        for index in open.strategies.indices {
            open.strategies[index].histograms[Metric.journeyCorrected] =
                open.strategies[index].histograms[Metric.journey]
        }
        open = ReportFixtures.named(open)
        cases.append(("open", open, "loop open at 5000.0/s (max lag 1000000000 ns) vs closed"))
        // The schedule decides which interleavings the racing journeys saw: another mode, or a
        // report that did not record one (written before runs did), is another workload.
        var schedule = GateTests.standardReport()
        schedule.manifest.run?.schedule = ScheduleMode.os.name
        cases.append(("schedule", schedule, "schedule os vs pct:depth=3"))
        var unrecorded = GateTests.standardReport()
        unrecorded.manifest.run?.schedule = nil
        cases.append(("unrecorded", unrecorded, "schedule (not recorded) vs pct:depth=3"))
        for (name, report, fragment) in cases {
            try Self.write(report, root + "/" + name)
            for hardOnly in [false, true] {
                let result = GateTests.gate(
                    ["--baseline", root + "/base", "--current", root + "/" + name] + (hardOnly ? ["--hard-only"] : [])
                )
                #expect(result.status == 2, "\(name)")
                #expect(result.err.contains("is not comparable with"), "\(name): \(result.err)")
                #expect(result.err.contains(fragment), "\(name): \(result.err)")
                #expect(!result.out.contains("PASS"), "\(name)")
            }
        }
    }

    @Test func theSameRunTwiceIsRefused() throws {
        let root = ReportFixtures.temporaryDirectory("gate-twice")
        defer { ReportFixtures.remove(root) }
        try Self.write(GateTests.standardReport(), root + "/base")
        try Self.write(GateTests.standardReport(), root + "/cur")
        try FileManager.default.copyItem(atPath: root + "/base", toPath: root + "/base-copy")
        for (baseline, current) in [
            ("base,base", "cur,cur"), ("base", "cur,cur"), ("base,base-copy", "cur"), ("base", "base-copy"),
            ("base", "cur,./cur"),
        ] {
            func paths(_ list: String) -> String {
                list.split(separator: ",").map { root + "/" + $0 }.joined(separator: ",")
            }
            let result = GateTests.gate(["--baseline", paths(baseline), "--current", paths(current)])
            #expect(result.status == 2, "\(baseline) / \(current)")
            #expect(result.err.contains("are the same run"), "\(baseline) / \(current): \(result.err)")
            #expect(!result.out.contains("PASS"))
        }
    }

    @Test func onlyRunsOrRepetitionsAreRead() throws {
        let root = ReportFixtures.temporaryDirectory("gate-parent")
        defer { ReportFixtures.remove(root) }
        try Self.write(GateTests.standardReport(), root + "/parent/base")
        try Self.write(GateTests.standardReport(), root + "/parent/cur")
        // A directory holding runs that are not repetitions: neither a run nor rep-1…rep-N.
        let parent = GateTests.gate(["--baseline", root + "/parent/base", "--current", root + "/parent"])
        #expect(parent.status == 2)
        #expect(parent.err.contains("is neither a report directory"), "\(parent.err)")
        // A gap in the repetitions (a leftover rep-9) is refused without --repetitions …
        for repetition in [1, 2, 9] {
            try Self.write(GateTests.standardReport(), root + "/reps/rep-\(repetition)")
        }
        let leftover = GateTests.gate(["--baseline", root + "/parent/base", "--current", root + "/reps"])
        #expect(leftover.status == 2)
        #expect(leftover.err.contains("holds rep-9 but not every rep-1…rep-9"), "\(leftover.err)")
        // … and with --repetitions 1 exactly rep-1 is run and read, whatever else is there.
        let parsed = try ArgumentParser.parse(
            ["--baseline", root + "/parent/base", "--current", root + "/reps", "--repetitions", "1", "--hard-only"],
            options: GateCommand.configuration.options
        )
        var command = try GateCommand(arguments: parsed)
        var baselineReport = try ReportReader.read(root + "/parent/base")
        baselineReport.manifest.commandLine = ["deeplink-bench", "run", "--journeys", "2000"]
        try Self.write(baselineReport, root + "/parent/base")
        command.launcher = { arguments in
            guard let out = arguments.last else { return 3 }
            return (try? ReportWriter.write(GateTests.standardReport(), to: out)) == nil ? 4 : 0
        }
        var out = ""
        let io = CommandIO(stdout: { out += $0 }, stderr: { _ in })
        #expect(try command.run(io: io) == 0, "\(out)")
        #expect(out.contains("current: 1 run(s)"), "\(out)")
    }

    @Test func headerOnlyReportsAreRefusedNotPassed() throws {
        let root = ReportFixtures.temporaryDirectory("gate-empty")
        defer { ReportFixtures.remove(root) }
        for side in ["base", "cur"] {
            try Self.write(GateTests.standardReport(), root + "/" + side)
            let header = ReportSchema.summaryColumns.map(\.name).joined(separator: ",") + "\r\n"
            try ReportFixtures.doctor(root + "/" + side, ReportSchema.summaryFile, header)
        }
        let result = GateTests.gate(["--baseline", root + "/base", "--current", root + "/cur"])
        #expect(result.status == 2)
        #expect(result.err.contains("no strategy rows"), "\(result.err)")
        #expect(!result.out.contains("PASS (0 checks"))
    }
}
