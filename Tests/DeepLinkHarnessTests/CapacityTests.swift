import DeepLinkCore
import DeepLinkHarness
import Foundation
import Testing

@Suite struct CapacityPlannerTests {
    /// A machine that holds the objective up to `limit` journeys/s per thread, and breaks above.
    static func model(limitPerThread limit: Double) -> (CapacityProbe) -> CapacityStep {
        { probe in
            let holds = probe.offeredPerSecond <= limit * Double(probe.threads)
            return CapacityStep(
                threads: probe.threads,
                offeredPerSecond: probe.offeredPerSecond,
                achievedPerSecond: probe.offeredPerSecond,
                p50Nanos: 1_000,
                p99Nanos: holds ? 500_000 : 5_000_000,
                p999Nanos: holds ? 600_000 : 9_000_000,
                dropped: 0,
                bytesPerJourney: 64
            )
        }
    }

    @Test func doublesThenBisectsToTheLimit() {
        let sweep = CapacitySweep(
            threadCounts: [1, 2],
            stepSeconds: 0.01,
            minimumJourneysPerStep: 10,
            startRatePerThread: 1_000,
            refinements: 3
        )
        var probes: [CapacityProbe] = []
        let model = Self.model(limitPerThread: 7_000)
        let result = CapacityPlanner.sweep(sweep) { probe in
            probes.append(probe)
            return model(probe)
        }
        // 1 thread: 1000, 2000, 4000 hold, 8000 breaks; then 6000 holds, 7000 holds, 7500 breaks.
        #expect(
            probes.filter { $0.threads == 1 }.map(\.offeredPerSecond) == [
                1_000, 2_000, 4_000, 8_000, 6_000, 7_000, 7_500,
            ]
        )
        #expect(result.bestStep(threads: 1)?.offeredPerSecond == 7_000)
        #expect(result.bestStep(threads: 2)?.offeredPerSecond == 14_000)
        // Steps take fresh, disjoint journey indices, at least the minimum per step.
        for (previous, next) in zip(probes, probes.dropFirst()) {
            #expect(next.firstIndex == previous.firstIndex + previous.journeys)
        }
        #expect(probes.allSatisfy { $0.journeys >= 10 })
        #expect(result.steps.count == probes.count)
    }

    @Test func halvesWhenTheFirstRateAlreadyBreaks() {
        let sweep = CapacitySweep(
            threadCounts: [1],
            minimumJourneysPerStep: 1,
            startRatePerThread: 1_000,
            refinements: 4
        )
        let result = CapacityPlanner.sweep(sweep, measure: Self.model(limitPerThread: 300))
        let best = result.bestStep(threads: 1)?.offeredPerSecond ?? 0
        #expect(best >= 250 && best <= 300)
        #expect(result.steps.first?.offeredPerSecond == 1_000)
    }

    @Test func stopsAtTheMaximumRate() {
        var sweep = CapacitySweep(threadCounts: [1], minimumJourneysPerStep: 1, startRatePerThread: 1_000)
        sweep.maximumRate = 3_000
        let result = CapacityPlanner.sweep(sweep, measure: Self.model(limitPerThread: 1e9))
        #expect(result.steps.map(\.offeredPerSecond) == [1_000, 2_000, 3_000])
    }

    @Test func nothingHoldsGivesAnHonestSummary() {
        let sweep = CapacitySweep(threadCounts: [1], minimumJourneysPerStep: 1, startRatePerThread: 100)
        let result = CapacityPlanner.sweep(sweep, measure: Self.model(limitPerThread: 0))
        #expect(result.bestStep(threads: 1) == nil)
        let summary = CapacityReport.summary(result, peakPerSecond: 1_000, cpuModel: "test CPU")
        #expect(summary.contains("no rate met the objective"))
        #expect(!summary.contains("needs"))
    }

    @Test func summaryProjectsAPeak() {
        let sweep = CapacitySweep(threadCounts: [1, 2], minimumJourneysPerStep: 1, startRatePerThread: 1_000)
        let result = CapacityPlanner.sweep(sweep, measure: Self.model(limitPerThread: 4_000))
        let summary = CapacityReport.summary(result, peakPerSecond: 1_000_000, cpuModel: "test CPU")
        // 4,000 per core at 2 threads: 250 cores for a million per second.
        #expect(summary.contains("max sustainable rate per core under the SLO: 4,000 journeys/s"))
        #expect(summary.contains("needs 250 cores"))
        #expect(summary.contains("bytes per pending link: \(MemoryLayout<PendingLink>.stride)"))
        #expect(summary.contains("\(PendingLinkQueue.bytesPerSlot) per pending-link queue slot"))
        #expect(summary.contains("assumptions:"))
        #expect(PendingLinkQueue.bytesPerSlot >= MemoryLayout<PendingLink>.size + MemoryLayout<UInt>.size)
        #expect(PendingLinkQueue.bytesPerSlot % 64 == 0)
        #expect(!summary.contains("note:"), "per-core rates agree")
    }

    @Test func summaryNotesAWideGapBetweenThreadCounts() {
        let sweep = CapacitySweep(threadCounts: [1, 2], minimumJourneysPerStep: 1, startRatePerThread: 1_000)
        // One thread holds 8,000/s; two threads only 4,000/s in total (2,000 per core).
        let result = CapacityPlanner.sweep(sweep) { probe in
            Self.model(limitPerThread: probe.threads == 1 ? 8_000 : 2_000)(probe)
        }
        let summary = CapacityReport.summary(result, peakPerSecond: 10_000, cpuModel: "test CPU")
        #expect(summary.contains("max sustainable rate per core under the SLO: 2,000 journeys/s"))
        #expect(summary.contains("note: 8,000 per core with 1 thread"))
        #expect(summary.contains("needs 5 cores"))
    }

    /// The real thing on a tiny configuration: open-loop steps of the core strategy, capacity.csv
    /// written and parsed back. The objective is generous (1 s) so a busy machine still holds it.
    @Test func tinyRealSweepWritesAWellFormedCapacityCSV() throws {
        var sweep = CapacitySweep(
            threadCounts: [1],
            sloP99Nanos: 1_000_000_000,
            stepSeconds: 0.02,
            minimumJourneysPerStep: 40,
            startRatePerThread: 2_000,
            refinements: 1
        )
        sweep.maximumRate = 8_000
        let result = CapacityPlanner.sweep(sweep) { CapacityPlanner.measure($0, sweep: sweep) }
        #expect(result.steps.map(\.offeredPerSecond) == [2_000, 4_000, 8_000])
        let table = try CSVTable(parsing: CapacityReport.csv(result))
        #expect(
            table.header == [
                "threads", "offered_per_s", "achieved_per_s", "p50_ns", "p99_ns", "p999_ns", "dropped",
                "bytes_per_journey", "meets_slo", "probe_start_ns", "probe_end_ns", "steal_ns", "involuntary_switches",
                "other_runnable", "disturbed",
            ]
        )
        #expect(table.rows.count == result.steps.count)
        for row in table.rows.indices {
            #expect(try table.unsigned("threads", row: row) == 1)
            #expect(try table.double("offered_per_s", row: row) > 0)
            #expect(try table.double("achieved_per_s", row: row) > 0)
            let p50 = try table.unsigned("p50_ns", row: row)
            let p99 = try table.unsigned("p99_ns", row: row)
            let p999 = try table.unsigned("p999_ns", row: row)
            #expect(p50 > 0 && p50 <= p99 && p99 <= p999)
            #expect(try table.unsigned("dropped", row: row) == 0)
            #expect(try table.double("bytes_per_journey", row: row) >= 0)
            let meets = try table.unsigned("meets_slo", row: row)
            #expect(meets == (p99 <= sweep.sloP99Nanos ? 1 : 0))
            // Each step probed the machine before and after it, and its row says what it found.
            let step = result.steps[row].disturbance
            #expect(try table.double("probe_start_ns", row: row) == step.probeStartNanos)
            #expect(try table.double("probe_end_ns", row: row) == step.probeEndNanos)
            #expect((step.probeStartNanos ?? 0) > 0 && (step.probeEndNanos ?? 0) > 0)
        }
    }
}

@Suite struct CapacityCommandTests {
    @Test func quickSweepOnOneThreadWritesTheReport() throws {
        let out = RunCommandTests.directory("capacity")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = RunCommandTests.bench([
            "capacity", "--quick", "--max-threads", "1", "--step-ms", "10", "--max-rate", "4000",
            "--slo-p99-ns", "3600000000000", "--peak-per-s", "100000", "--out", out, "--quiet",
        ])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.err.isEmpty)
        #expect(result.out.contains("max sustainable rate per core under the SLO: 4,000 journeys/s"))
        #expect(result.out.contains("needs 25 cores"))
        let table = try RunCommandTests.table(out, CapacityReport.file)
        #expect(table.rows.count == 1)
        #expect(try table.double("offered_per_s", row: 0) == 4_000)
        let manifest = try #require(FileManager.default.contents(atPath: out + "/" + ReportSchema.manifestFile))
        #expect(String(decoding: manifest, as: UTF8.self).contains("\"capacity\""))
    }

    @Test func badOptionsExitTwo() {
        for arguments in [
            ["--slo-p99-ns", "0"], ["--slo-p99-ns", "x"], ["--peak-per-s", "-5"], ["--peak-per-s", "0"],
            ["--max-threads", "0"], ["--step-ms", "0"], ["--max-rate", "0.5"], ["extra"],
        ] {
            let result = RunCommandTests.bench(["capacity"] + arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.err.hasPrefix("error: capacity: "), "\(arguments): \(result.err)")
        }
    }
}

@Suite struct CapacityDocumentationTests {
    @Test func readmeDocumentsCapacityAndOpenLoopColumns() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("Reports/README.md"), encoding: .utf8)
        #expect(readme.contains("## \(CapacityReport.file)"))
        for column in CapacityReport.columns { #expect(readme.contains("`\(column.name)`"), "\(column.name)") }
        for column in ArrivalReport.columns { #expect(readme.contains("| `\(column)` |"), "\(column)") }
        #expect(readme.contains("`\(Metric.journeyCorrected)`"))
    }
}
