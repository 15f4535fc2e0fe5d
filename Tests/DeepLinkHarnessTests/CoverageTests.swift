import DeepLinkHarness
import Testing

@Suite struct CoverageTests {
    static var journeys: UInt64 { Sanitizer.isActive ? 4_000 : 20_000 }

    static func report(threads: Int, raceShare: Double = 0, schedule: ScheduleMode = .default) throws -> RunReport {
        var configuration = RunConfiguration(
            journeys: journeys,
            seed: 7,
            threads: threads,
            raceShare: raceShare
        )
        configuration.schedule = schedule
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

    /// A journey's paths are counted by their bits: each named path is one bit of its own, and
    /// exactly the paths taken are counted, once each, in `named`'s (the report's) order.
    @Test func eachTakenPathIsCountedOnceInReportOrder() {
        for (index, entry) in DecisionPaths.named.enumerated() {
            #expect(entry.path.rawValue.nonzeroBitCount == 1, "\(entry.name)")
            #expect(Int(DecisionPaths.namedIndexOfBit[entry.path.rawValue.trailingZeroBitCount]) == index)
        }
        var counts = CoverageCounts()
        counts.count(paths: [.overflowSupersede, .duplicateByID, .heldForAccount])
        counts.count(paths: [.overflowSupersede])
        counts.count(paths: [])
        let counted = Dictionary(
            uniqueKeysWithValues: DecisionPaths.named.indices.map { (DecisionPaths.named[$0].name, counts.paths[$0]) }
        )
        #expect(counted["overflow_supersede"] == 2)
        #expect(counted["duplicate_by_id"] == 1)
        #expect(counted["held_for_account"] == 1)
        #expect(counted.values.reduce(0, +) == 4)
    }

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

    /// Every schedule point has a row for `core` (zero: never reached); pairs only when
    /// interleaved. The racing journeys' controlled races reach the queue, the work counter, the
    /// lock and the store, and interleave some pairs; under `os` nothing watches, so every point
    /// row is zero and no pair is written.
    @Test func coverageCountsSchedulePointsAndInterleavedPairs() throws {
        let report = try Self.report(threads: 2, raceShare: 0.2)
        let core = try #require(report.strategies.first { $0.name == "core" })
        let racing = core.coverage[CoverageKey(kind: CoverageKey.feature, name: "racing:yes"), default: 0]
        #expect(racing > 0)
        for name in ScheduleCoverage.pointNames {
            let count = try #require(core.coverage[CoverageKey(kind: CoverageKey.point, name: name)], "\(name)")
            #expect(count <= racing, "point \(name) in \(count) journeys, only \(racing) raced")
        }
        for name in ["queue_claim", "queue_publish", "work_increment", "work_release", "lock_acquire", "store_save"] {
            #expect(core.coverage[CoverageKey(kind: CoverageKey.point, name: name), default: 0] > 0, "\(name)")
        }
        let pairs = core.coverage.filter { $0.key.kind == CoverageKey.pair }
        #expect(!pairs.isEmpty)
        for (key, count) in pairs {
            #expect(count > 0 && count <= racing, "\(key.name): \(count)")
            #expect(ScheduleCoverage.pairNames.contains(key.name), "\(key.name)")
        }
        let naive = try #require(report.strategies.first { $0.name == "naive" })
        #expect(!naive.coverage.keys.contains { $0.kind == CoverageKey.point || $0.kind == CoverageKey.pair })

        let os = try Self.report(threads: 1, raceShare: 0.2, schedule: .os)
        let coreOS = try #require(os.strategies.first { $0.name == "core" })
        #expect(coreOS.coverage.filter { $0.key.kind == CoverageKey.point }.allSatisfy { $0.value == 0 })
        #expect(!coreOS.coverage.keys.contains { $0.kind == CoverageKey.pair })
    }

    /// Every ordered pair of points has its own bit.
    @Test func everyPairOfPointsFits() {
        #expect(
            ScheduleCoverage.pairNames.count == ScheduleCoverage.pointNames.count * ScheduleCoverage.pointNames.count
        )
        #expect(Set(ScheduleCoverage.pairNames).count == ScheduleCoverage.pairNames.count)
        #expect(ScheduleCoverage.pairNames.count <= ScheduleCoverage.pairCapacity)
    }

    @Test func outcomesAndCoverageDoNotDependOnThreadCount() throws {
        let one = try Self.report(threads: 1)
        let two = try Self.report(threads: 2)
        #expect(try ReportWriter.outcomesCSV(one) == ReportWriter.outcomesCSV(two))
        #expect(try ReportWriter.coverageCSV(one) == ReportWriter.coverageCSV(two))
    }

    @Test func coverageSurvivesAWriteAndRead() throws {
        let report = try Self.report(threads: 2, raceShare: 0.2)
        let root = ReportFixtures.temporaryDirectory("coverage-roundtrip")
        defer { ReportFixtures.remove(root) }
        try ReportWriter.write(report, to: root)
        let read = try ReportReader.read(root)
        for (written, readBack) in zip(report.strategies, read.strategies) {
            #expect(written.coverage == readBack.coverage)
        }
    }
}
