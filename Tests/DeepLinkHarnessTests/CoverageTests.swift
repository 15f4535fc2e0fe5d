import DeepLinkHarness
import Testing

@Suite struct CoverageTests {
    static var journeys: UInt64 { Sanitizer.isActive ? 4_000 : 20_000 }

    static func report(threads: Int, raceShare: Double = 0) throws -> RunReport {
        let configuration = RunConfiguration(
            journeys: journeys,
            seed: 7,
            threads: threads,
            raceShare: raceShare
        )
        return Runner.run(configuration).report(
            runID: "test",
            manifest: RunManifest.current(commandLine: ["test"]),
            peakRSSBytes: 0
        )
    }

    /// Paths whose count depends on thread timing (two producers filling the queue): asserted
    /// only outside the sanitizers, which change the timing. `make coverage-check` asserts every
    /// path 1,000 times over the default 1M-journey run, in release.
    static let timingPaths: Set<String> = ["queue_full"]

    @Test func coverageCountsFeaturesAndCorePaths() throws {
        let report = try Self.report(threads: 2, raceShare: 0.5)
        let core = try #require(report.strategies.first { $0.name == "core" })
        for (_, name) in DecisionPaths.named where !(Sanitizer.isActive && Self.timingPaths.contains(name)) {
            let count = core.coverage[CoverageKey(kind: CoverageKey.path, name: name), default: 0]
            #expect(count >= 1, "path \(name) exercised \(count) times")
        }
        // Every listed path has a row, zero or not; only core reports paths.
        for (_, name) in DecisionPaths.named {
            #expect(core.coverage[CoverageKey(kind: CoverageKey.path, name: name)] != nil)
        }
        let naive = try #require(report.strategies.first { $0.name == "naive" })
        #expect(!naive.coverage.keys.contains { $0.kind == CoverageKey.path })
        // Features: each platform's journeys add up to the run.
        let platforms = ["ios", "android", "installed"].map {
            core.coverage[CoverageKey(kind: CoverageKey.feature, name: "platform:\($0)"), default: 0]
        }
        #expect(platforms.reduce(0, +) == Self.journeys)
        #expect(platforms.allSatisfy { $0 > 0 })
        // Journeys compose 0, 1, 2 and 3+ perturbations, and every extra perturbation occurs.
        for count in ["0", "1", "2", "3+"] {
            let journeys = core.coverage[CoverageKey(kind: CoverageKey.feature, name: "perturbations:\(count)")]
            #expect((journeys ?? 0) > 0, "no journey with \(count) perturbations")
        }
        for (_, name) in ExtraPerturbations.named {
            #expect(core.coverage[CoverageKey(kind: CoverageKey.feature, name: "extra:\(name)"), default: 0] > 0)
        }
    }

    @Test func outcomesAndCoverageDoNotDependOnThreadCount() throws {
        let one = try Self.report(threads: 1)
        let two = try Self.report(threads: 2)
        #expect(try ReportWriter.outcomesCSV(one) == ReportWriter.outcomesCSV(two))
        #expect(try ReportWriter.coverageCSV(one) == ReportWriter.coverageCSV(two))
    }

    @Test func coverageSurvivesAWriteAndRead() throws {
        let report = try Self.report(threads: 2)
        let root = ReportFixtures.temporaryDirectory("coverage-roundtrip")
        defer { ReportFixtures.remove(root) }
        try ReportWriter.write(report, to: root)
        let read = try ReportReader.read(root)
        for (written, readBack) in zip(report.strategies, read.strategies) {
            #expect(written.coverage == readBack.coverage)
        }
    }
}
