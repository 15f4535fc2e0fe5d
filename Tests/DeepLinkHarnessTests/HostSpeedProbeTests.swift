import DeepLinkHarness
import Foundation
import Testing

/// Issue 15 part 4: a machine that runs slower without any steal, preemption or load to show it
/// (seen here for hours), caught by timing a fixed round of work before and after a measurement.
@Suite struct HostSpeedProbeTests {
    static func judge(
        probes start: Double?,
        _ end: Double?,
        thresholds: Disturbance.Thresholds = Disturbance.Thresholds()
    ) -> Disturbance {
        let quiet = DisturbanceReading(stealNanos: 0, involuntarySwitches: 0, runnable: 1, ownRunnable: 1)
        return Disturbance(
            start: quiet,
            end: quiet,
            samples: [],
            wallNanos: 1_000_000_000,
            threads: 1,
            cores: 2,
            probeStartNanos: start,
            probeEndNanos: end,
            thresholds: thresholds
        )
    }

    /// The probe does its work: a 752-byte copy and a lock pair take at least a nanosecond on any
    /// machine, and far less than a millisecond.
    @Test func theProbeTimesItsRounds() {
        let nanos = HostSpeedProbe.measure()
        #expect(nanos.isFinite)
        #expect(nanos > 1 && nanos < 1_000_000, "\(nanos) ns per round")
    }

    @Test func aMachineThatChangedSpeedDuringTheMeasurementIsDisturbed() {
        let slowed = Self.judge(probes: 8, 13)
        #expect(slowed.disturbed)
        #expect(
            slowed.reasons == [
                "the machine changed speed: a fixed probe round took 8.0 ns before and 13.0 ns after (threshold 1.5x)"
            ]
        )
        #expect(slowed.hostSpeedNanos == 10.5)
        // Faster at the end counts the same; within 1.5x either way does not.
        #expect(Self.judge(probes: 13, 8).disturbed)
        #expect(!Self.judge(probes: 8, 11.9).disturbed)
        #expect(!Self.judge(probes: 11.9, 8).disturbed)
        // A missing probe judges nothing, and the speed is the one taken.
        let half = Self.judge(probes: 8, nil)
        #expect(!half.disturbed)
        #expect(half.hostSpeedNanos == 8)
        #expect(Self.judge(probes: nil, nil).hostSpeedNanos == nil)
        var loose = Disturbance.Thresholds()
        loose.probeDrift = 2
        #expect(!Self.judge(probes: 8, 13, thresholds: loose).disturbed)
    }

    @Test func mergedShardsKeepTheSlowerProbe() throws {
        let merged = try #require(Self.judge(probes: 8, 9).merging(Self.judge(probes: 10, nil)))
        #expect(merged.probeStartNanos == 10)
        #expect(merged.probeEndNanos == 9)
        #expect(!merged.disturbed)
    }

    /// A run probes before its workers start and after they finish; the times reach manifest.json
    /// (hundredths), read back equal, and a changed speed marks the run disturbed.
    @Test func aRunProbesBeforeAndAfterAndRecordsItInTheManifest() throws {
        var configuration = RunConfiguration(journeys: 400, seed: 5, threads: 1, strategies: [.core])
        configuration.disturbanceSource = ScriptedDisturbanceSource(quietWithProbes: [9.123, 21.5])
        let result = Runner.run(configuration)
        #expect(result.disturbance.probeStartNanos == 9.12)
        #expect(result.disturbance.probeEndNanos == 21.5)
        #expect(result.disturbance.disturbed)
        #expect(result.disturbance.reasons.first?.hasPrefix("the machine changed speed") == true)
        let directory = ReportFixtures.temporaryDirectory("probed-run")
        defer { ReportFixtures.remove(directory) }
        let report = result.report(
            runID: "r1",
            manifest: RunManifest.current(commandLine: ["deeplink-bench", "run"]),
            peakRSSBytes: 1
        )
        try ReportWriter.write(report, to: directory)
        let json = try String(contentsOfFile: directory + "/" + ReportSchema.manifestFile, encoding: .utf8)
        #expect(json.contains("\"probe_start_ns\"") && json.contains("\"probe_end_ns\""))
        let read = try ReportReader.read(directory)
        #expect(read.manifest.disturbance == result.disturbance)
        #expect(try GateInput.values(directory).hostSpeedNanos == (9.12 + 21.5) / 2)
        // A source that takes no probe writes none (an older report reads back the same way).
        configuration.disturbanceSource = ScriptedDisturbanceSource([DisturbanceTests.reading()])
        let unprobed = Runner.run(configuration).disturbance
        #expect(unprobed.probeStartNanos == nil && unprobed.probeEndNanos == nil)
        let encoded = String(decoding: try JSONEncoder().encode(unprobed), as: UTF8.self)
        #expect(!encoded.contains("probe_"))
        #expect(try JSONDecoder().decode(Disturbance.self, from: Data(encoded.utf8)) == unprobed)
    }

    /// The same CPU model at another speed: the gate's timings cannot be compared, so each is
    /// inconclusive, never pass or fail; within the ratio, or without a probe on a side, they are judged.
    @Test func aBaselineFromAMachineOfAnotherSpeedMakesTimingsInconclusive() {
        func run(_ rate: Double, probe: Double?) -> RegressionGate.RunValues {
            var values = RegressionGate.RunValues()
            values.strategies = ["core"]
            values.summary["core"] = ["journeys_per_s": rate, "bytes_per_journey": 0, "violations": 0]
            values.hostSpeedNanos = probe
            return values
        }
        let gate = RegressionGate(timeTolerance: 0.1)
        func check(baseProbe: Double?, currentProbe: Double?) -> RegressionGate.Check? {
            let baseline = [run(1000, probe: baseProbe), run(1010, probe: baseProbe)]
            let current = [run(500, probe: currentProbe), run(505, probe: currentProbe)]
            return gate.evaluate(baseline: baseline, current: current).first { $0.metric == "journeys_per_s" }
        }
        let slower = check(baseProbe: 8, currentProbe: 16)
        #expect(slower?.verdict == .inconclusive)
        #expect(
            slower?.detail.contains(
                "host speed differs from the baseline's (a fixed probe round took 16.0 ns here, 8.0 ns in the baseline"
            ) == true,
            "\(slower?.detail ?? "")"
        )
        #expect(check(baseProbe: 16, currentProbe: 8)?.verdict == .inconclusive)
        #expect(check(baseProbe: 8, currentProbe: 11)?.verdict == .fail)
        #expect(check(baseProbe: nil, currentProbe: 16)?.verdict == .fail)
        #expect(check(baseProbe: 8, currentProbe: nil)?.verdict == .fail)
        // Hard checks do not depend on the machine's speed.
        var violating = run(1000, probe: 16)
        violating.summary["core"]?["violations"] = 1
        let hard = gate.evaluate(baseline: [run(1000, probe: 8)], current: [violating]).first {
            $0.metric == "violations"
        }
        #expect(hard?.verdict == .fail)
    }
}
