import DeepLinkHarness
import Foundation
import Testing

/// Issue 15 part 4: the machine's disturbance of a measurement, from synthetic readings.
@Suite struct DisturbanceTests {
    static func reading(steal: UInt64 = 0, switches: UInt64 = 0, runnable: Int = 1, own: Int = 1) -> DisturbanceReading
    {
        DisturbanceReading(stealNanos: steal, involuntarySwitches: switches, runnable: runnable, ownRunnable: own)
    }

    static func judge(_ start: DisturbanceReading, _ end: DisturbanceReading, threads: Int = 1) -> Disturbance {
        Disturbance(
            start: start,
            end: end,
            samples: [start, end],
            wallNanos: 1_000_000_000,
            threads: threads,
            cores: 2
        )
    }

    /// A run's races preempt the run itself (two or three threads per worker on as many cores as
    /// workers): the racing threads book their own switches, and the machine's reading leaves
    /// them out. The counters are process-wide and other tests race meanwhile, so this pins what
    /// holds whatever they do: a mark moves to the thread's count, and the reading never exceeds
    /// the process's switches read after it.
    @Test func theRunsOwnRaceSwitchesAreNotTheMachines() {
        var mark = UInt64.max
        RaceSwitches.book(since: &mark)
        #expect(mark <= RaceSwitches.ofCallingThread())
        let reading = ProcDisturbanceSource().read().involuntarySwitches
        var usage = rusage()
        #expect(getrusage(RUSAGE_SELF.rawValue, &usage) == 0)
        #expect(reading <= UInt64(max(0, usage.ru_nivcsw)))
    }

    @Test func aQuietMeasurementIsNotDisturbed() {
        let quiet = Self.judge(Self.reading(steal: 5, switches: 10), Self.reading(steal: 1_000_000, switches: 20))
        #expect(!quiet.disturbed)
        #expect(quiet.reasons.isEmpty)
        #expect(quiet.stealNanos == 999_995)
        #expect(quiet.involuntarySwitches == 10)
        #expect(quiet.otherRunnable == 0)
    }

    @Test func eachThresholdMarksItsOwnReason() {
        // 1 s on 2 cores = 2e9 ns of CPU; 2 % is 40 ms.
        let steal = Self.judge(Self.reading(), Self.reading(steal: 50_000_000))
        #expect(steal.disturbed)
        #expect(steal.reasons == ["steal 2.5% of CPU time (threshold 2.0%)"])
        let justUnder = Self.judge(Self.reading(), Self.reading(steal: 40_000_000))
        #expect(!justUnder.disturbed)

        let switches = Self.judge(Self.reading(switches: 0), Self.reading(switches: 102), threads: 2)
        #expect(switches.disturbed)
        #expect(switches.reasons == ["51 involuntary context switches per thread-second (threshold 50)"])
        #expect(!Self.judge(Self.reading(switches: 0), Self.reading(switches: 100), threads: 2).disturbed)

        // One thread on two cores leaves one free: up to 1.5 others on average is tolerated.
        let load = Self.judge(Self.reading(runnable: 4, own: 2), Self.reading(runnable: 3, own: 1))
        #expect(load.otherRunnable == 2)
        #expect(load.disturbed)
        #expect(load.reasons == ["2.00 other runnable threads on average, 1 cores free (threshold +0.5)"])
        #expect(!Self.judge(Self.reading(runnable: 2, own: 1), Self.reading(runnable: 3, own: 1)).disturbed)
    }

    @Test func thresholdsCanBeChanged() {
        var strict = Disturbance.Thresholds()
        strict.switchesPerThreadSecond = 5
        let start = Self.reading(switches: 0)
        let end = Self.reading(switches: 6)
        #expect(
            !Disturbance(start: start, end: end, samples: [], wallNanos: 1_000_000_000, threads: 1, cores: 2).disturbed
        )
        #expect(
            Disturbance(
                start: start,
                end: end,
                samples: [],
                wallNanos: 1_000_000_000,
                threads: 1,
                cores: 2,
                thresholds: strict
            ).disturbed
        )
    }

    @Test func aRunRecordsItsReadingsInManifestAndSummary() throws {
        var configuration = RunConfiguration(journeys: 600, seed: 3, threads: 1, strategies: [.core, .naive])
        configuration.disturbanceSource = ScriptedDisturbanceSource([
            Self.reading(steal: 0, switches: 7, runnable: 6, own: 1),
            Self.reading(steal: 0, switches: 9, runnable: 6, own: 1),
        ])
        let result = Runner.run(configuration)
        #expect(result.disturbance.disturbed)
        #expect(result.disturbance.otherRunnable == 5)
        #expect(result.disturbance.involuntarySwitches == 2)
        let directory = ReportFixtures.temporaryDirectory("disturbed-run")
        defer { ReportFixtures.remove(directory) }
        let manifest = RunManifest.current(commandLine: ["deeplink-bench", "run"])
        let report = result.report(runID: "r1", manifest: manifest, peakRSSBytes: 1)
        try ReportWriter.write(report, to: directory)
        let summary = try ReportFixtures.read(directory, ReportSchema.summaryFile)
        #expect(summary.records.allSatisfy { $0["disturbed"] == "1" && $0["other_runnable"] == "5.00" })
        #expect(summary.records.allSatisfy { $0["involuntary_switches"] == "2" && $0["steal_ns"] == "0" })
        let read = try ReportReader.read(directory)
        #expect(read.manifest.disturbance == result.disturbance)
        #expect(read.manifest == report.manifest)
        let costs = (read.strategies.map(\.costs), report.strategies.map(\.costs))
        #expect(costs.0 == costs.1)
        // A quiet source: the same run is not disturbed.
        configuration.disturbanceSource = ScriptedDisturbanceSource([Self.reading()])
        #expect(!Runner.run(configuration).disturbance.disturbed)
    }

    @Test func aDisturbedTimingIsInconclusiveNeverPassOrFail() {
        func run(_ rate: Double, disturbed: Bool) -> RegressionGate.RunValues {
            var values = RegressionGate.RunValues()
            values.strategies = ["core"]
            values.summary["core"] = ["journeys_per_s": rate, "bytes_per_journey": 0, "violations": 0]
            if disturbed { values.disturbances = ["steal 9.0% of CPU time (threshold 2.0%)"] }
            return values
        }
        let gate = RegressionGate(timeTolerance: 0.1)
        let baseline = [run(1000, disturbed: false), run(1010, disturbed: false)]
        func verdict(_ current: [RegressionGate.RunValues]) -> RegressionGate.Check? {
            gate.evaluate(baseline: baseline, current: current).first { $0.metric == "journeys_per_s" }
        }
        // Half the rate: a clear failure, and a clear pass, when undisturbed ...
        #expect(verdict([run(500, disturbed: false), run(505, disturbed: false)])?.verdict == .fail)
        #expect(verdict([run(1000, disturbed: false), run(1005, disturbed: false)])?.verdict == .pass)
        // ... neither when one current run was disturbed.
        let slow = verdict([run(500, disturbed: true), run(505, disturbed: false)])
        #expect(slow?.verdict == .inconclusive)
        #expect(slow?.detail.contains("1 of 2 current runs (steal 9.0% of CPU time") == true)
        #expect(verdict([run(1000, disturbed: false), run(1005, disturbed: true)])?.verdict == .inconclusive)
        // A disturbed baseline run counts the same.
        let disturbedBaseline = [run(1000, disturbed: true), run(1010, disturbed: false)]
        let check = gate.evaluate(
            baseline: disturbedBaseline,
            current: [run(500, disturbed: false), run(505, disturbed: false)]
        )
        .first { $0.metric == "journeys_per_s" }
        #expect(check?.verdict == .inconclusive)
        // Hard checks are not affected by disturbance.
        var violating = run(1000, disturbed: true)
        violating.summary["core"]?["violations"] = 3
        let hard = gate.evaluate(baseline: baseline, current: [violating, violating]).first {
            $0.metric == "violations"
        }
        #expect(hard?.verdict == .fail)
    }

    @Test func theGateReadsDisturbanceFromTheManifest() throws {
        let root = ReportFixtures.temporaryDirectory("gate-disturbed")
        defer { ReportFixtures.remove(root) }
        var report = GateTests.standardReport()
        report.manifest.disturbance = Self.judge(Self.reading(), Self.reading(steal: 900_000_000))
        try ReportWriter.write(report, to: root + "/run")
        let values = try GateInput.values(root + "/run")
        #expect(values.disturbances == ["steal 45.0% of CPU time (threshold 2.0%)"])
    }

    @Test func anOldReportWithoutTheNewColumnsIsANamedError() throws {
        let root = ReportFixtures.temporaryDirectory("gate-old-baseline")
        defer { ReportFixtures.remove(root) }
        try ReportWriter.write(GateTests.standardReport(), to: root + "/base")
        try ReportWriter.write(GateTests.standardReport(), to: root + "/cur")
        let path = root + "/base/" + ReportSchema.summaryFile
        let table = try CSVTable(parsing: [UInt8](try #require(FileManager.default.contents(atPath: path))))
        let dropped = Set(JourneyCostReport.columns + Disturbance.columns)
        let keep = table.header.indices.filter { !dropped.contains(table.header[$0]) }
        let lines = ([table.header] + table.rows).map { row in keep.map { row[$0] }.joined(separator: ",") }
        try ReportFixtures.doctor(root + "/base", ReportSchema.summaryFile, lines.joined(separator: "\r\n") + "\r\n")
        let result = GateTests.gate(["--baseline", root + "/base", "--current", root + "/cur", "--hard-only"])
        #expect(result.status == 2)
        #expect(result.err.contains("missing column 'strategy_ns'"), "\(result.err)")
        #expect(result.err.contains("make baseline"), "\(result.err)")
    }

    @Test func aCapacityStepThatBreaksBelowAHeldRateIsDisturbed() {
        let sweep = CapacitySweep(threadCounts: [1], sloP99Nanos: 1_000_000, refinements: 2)
        // 10k holds, 20k breaks, 15k breaks (noise), then the search stops; a later 12.5k holds.
        let p99: [Double: UInt64] = [10_000: 500_000, 20_000: 2_000_000, 15_000: 2_000_000, 12_500: 900_000]
        let result = CapacityPlanner.sweep(sweep) { probe in
            CapacityStep(
                threads: probe.threads,
                offeredPerSecond: probe.offeredPerSecond,
                achievedPerSecond: probe.offeredPerSecond,
                p50Nanos: 1,
                p99Nanos: p99[probe.offeredPerSecond] ?? 3_000_000,
                p999Nanos: 1,
                dropped: 0,
                bytesPerJourney: 0
            )
        }
        #expect(result.steps.map(\.offeredPerSecond) == [10_000, 20_000, 15_000, 12_500])
        #expect(result.steps.allSatisfy { !$0.disturbance.disturbed })
        // A step that failed at 11,000 while 12,500 held disagrees with it.
        var inconsistent = result
        inconsistent.steps.append(
            CapacityStep(
                threads: 1,
                offeredPerSecond: 11_000,
                achievedPerSecond: 11_000,
                p50Nanos: 1,
                p99Nanos: 5_000_000,
                p999Nanos: 1,
                dropped: 0,
                bytesPerJourney: 0
            )
        )
        inconsistent.markInconsistentSteps()
        #expect(inconsistent.steps.map(\.disturbance.disturbed) == [false, false, false, false, true])
        #expect(
            inconsistent.steps[4].disturbance.reasons == ["broke the objective below a rate that held at 1 threads"]
        )
    }
}
