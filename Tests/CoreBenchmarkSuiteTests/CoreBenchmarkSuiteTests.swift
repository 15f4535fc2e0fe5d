import DeepLinkHarness
import Testing

@testable import CoreBenchmarkSuite

@Suite struct BenchmarkRunnerTests {
    @Test func medianOfOddAndEvenCounts() {
        #expect(BenchmarkRunner.median([]) == 0)
        #expect(BenchmarkRunner.median([3, 1, 2]) == 2)
        #expect(BenchmarkRunner.median([4, 1, 3, 2]) == 2.5)
    }

    /// The spread of a speedup over its repetitions: quartiles interpolated between ranks.
    @Test func quartilesInterpolateBetweenRanks() {
        #expect(BenchmarkRunner.quantile([], 0.25) == 0)
        #expect(BenchmarkRunner.quantile([7], 0.75) == 7)
        #expect(BenchmarkRunner.quantile([5, 1, 3, 2, 4], 0.25) == 2)
        #expect(BenchmarkRunner.quantile([5, 1, 3, 2, 4], 0.75) == 4)
        #expect(BenchmarkRunner.quantile([4, 1, 3, 2], 0.25) == 1.75)
        #expect(BenchmarkRunner.quantile([4, 1, 3, 2], 1) == 4)
    }

    @Test func speedupIsPeerOverSubjectAndBytesAreExact() {
        // The peer does ten times the work of the subject and allocates 64 bytes per operation.
        let subject = BenchmarkSide("light") { operations in
            measuringAllocations(operations) { index in blackHole(index &* 3) }
        }
        let peer = BenchmarkSide("heavy") { operations in
            measuringAllocations(operations) { index in
                var sum = 0
                for step in 0..<200 { sum &+= (index ^ step) &* 7 }
                blackHole([UInt8](repeating: UInt8(truncatingIfNeeded: sum), count: 64 - 32))
            }
        }
        let runner = BenchmarkRunner(repetitions: 9, sampleNanos: 200_000, allocationOperations: 100)
        let result = runner.run(Comparison(benchmark: "synthetic", subject: subject, peer: peer))
        #expect(result.repetitions == 9)
        #expect(result.speedup > 1)
        #expect(result.speedupLowerQuartile <= result.speedup && result.speedup <= result.speedupUpperQuartile)
        #expect(result.subjectBytesPerOp == 0 || Sanitizer.isActive)
        if !Sanitizer.isActive {
            #expect(AllocationCounter.isJemallocActive)
            #expect(result.peerBytesPerOp >= 32)
        }
    }
}

/// Each comparison carries the machine's readings over it and the host-speed probe before and
/// after it, into its CSV row and the notes under the table.
@Suite struct ComparisonDisturbanceTests {
    static let side = BenchmarkSide("side") { operations in
        measuringAllocations(operations) { index in blackHole(index &* 3) }
    }

    static func run(_ source: ScriptedDisturbanceSource, threads: Int = 1) -> ComparisonResult {
        let runner = BenchmarkRunner(
            repetitions: 9,
            sampleNanos: 100_000,
            allocationOperations: 10,
            disturbanceSource: source
        )
        return runner.run(Comparison(benchmark: "synthetic", subject: side, peer: side, threads: threads))
    }

    /// Switches are judged only for a comparison that leaves a core free: one that fills every
    /// core preempts itself.
    @Test func aComparisonThatFillsEveryCoreIsNotJudgedByItsOwnSwitches() {
        func run(threads: Int) -> ComparisonResult {
            // A million switches over a comparison that takes a few milliseconds.
            let busy = ScriptedDisturbanceSource([
                DisturbanceReading(stealNanos: 0, involuntarySwitches: 0, runnable: 1, ownRunnable: 1),
                DisturbanceReading(stealNanos: 0, involuntarySwitches: 1_000_000, runnable: 1, ownRunnable: 1),
            ])
            return Self.run(busy, threads: threads)
        }
        let filling = run(threads: ResourceUsage.coreCount())
        #expect(filling.disturbance.involuntarySwitches == 1_000_000)
        #expect(!filling.disturbance.disturbed)
        #expect(run(threads: 1).disturbance.disturbed == (ResourceUsage.coreCount() > 1))
    }

    @Test func aComparisonOnAMachineThatChangedSpeedIsMarkedInItsRowAndNotes() throws {
        let slowed = Self.run(ScriptedDisturbanceSource(quietWithProbes: [8, 20]))
        #expect(slowed.disturbance.probeStartNanos == 8 && slowed.disturbance.probeEndNanos == 20)
        #expect(slowed.disturbance.disturbed)
        let lines = CoreBenchmarkSuite.csv([slowed]).split(separator: "\n").map(String.init)
        let header = lines[0].split(separator: ",").map(String.init)
        let row = lines[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let field = { (name: String) in row[try #require(header.firstIndex(of: name))] }
        #expect(try field("probe_start_ns") == "8.00")
        #expect(try field("probe_end_ns") == "20.00")
        #expect(try field("disturbed") == "1")
        let notes = CoreBenchmarkSuite.machineNotes([slowed])
        #expect(notes.contains("host-speed probe: 8.0-20.0 ns per round"), "\(notes)")
        #expect(notes.contains("disturbed: synthetic: the machine changed speed"), "\(notes)")

        let steady = Self.run(ScriptedDisturbanceSource(quietWithProbes: [8, 9]))
        #expect(!steady.disturbance.disturbed)
        let steadyNotes = CoreBenchmarkSuite.machineNotes([steady])
        #expect(steadyNotes == "host-speed probe: 8.0-9.0 ns per round\n")
    }
}

@Suite struct CoreBenchmarkSuiteTests {
    /// Runs every comparison in its quickest form on a tiny corpus: the CSV must be well formed and
    /// the operations the targets call allocation-free must allocate nothing. Times are not
    /// asserted.
    @Test func quickestRunWritesWellFormedCSVWithZeroAllocationColumns() throws {
        let runner = BenchmarkRunner(repetitions: 9, sampleNanos: 100_000, allocationOperations: 50)
        // `Synchronization.Mutex` is invisible to ThreadSanitizer on Linux, so the two-thread run of
        // the Mutex-guarded peer (not our code) is reported as a race there; it is left out only then.
        let skipped: Set<String> = Sanitizer.isActive ? ["queue-2threads"] : []
        let results = CoreBenchmarkSuite.run(runner: runner, corpusSize: 20, filter: nil, skipping: skipped)
        let lines = CoreBenchmarkSuite.csv(results).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first.map(String.init) == CoreBenchmarkSuite.columns.joined(separator: ","))
        #expect(lines.last == "")
        let rows = lines.dropFirst().dropLast().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(rows.count == results.count)
        #expect(rows.allSatisfy { $0.count == CoreBenchmarkSuite.columns.count })
        for row in rows {
            for column in 3...8 { #expect(Double(row[column]) != nil, "column \(column) of \(row)") }
        }
        let names = Set(results.map(\.benchmark))
        for expected in CoreBenchmarkSuite.zeroAllocationBenchmarks.subtracting(skipped) {
            #expect(names.contains(expected))
        }
        guard !Sanitizer.isActive else { return }
        #expect(AllocationCounter.isJemallocActive)
        for result in results where CoreBenchmarkSuite.zeroAllocationBenchmarks.contains(result.benchmark) {
            #if DEBUG
            // A debug build's race machinery allocates in every race (a release build's does not:
            // LibcryptoBytesTests.racingJourneysAllocateNothing).
            if result.benchmark == "race" { continue }
            #endif
            #expect(result.subjectBytesPerOp == 0, "\(result.benchmark) allocates")
        }
    }
}

/// The rows that time whole journeys through `core` (no harness around them).
@Suite struct JourneyComparisonTests {
    /// The comparison named `benchmark`, after checking its sides' names and running each over
    /// more journeys than the corpus holds (the loop cycles it).
    static func comparison(_ benchmark: String, subject: String, peer: String) throws -> Comparison {
        let comparison = try #require(
            CoreBenchmarkSuite.comparisons(corpusSize: 20).first { $0.benchmark == benchmark }
        )
        #expect(comparison.subject.name == subject)
        #expect(comparison.peer.name == peer)
        _ = comparison.subject.run(50)
        _ = comparison.peer.run(50)
        return comparison
    }

    /// `journey`: a row the instruction gate counts (one thread) under a name of its own.
    @Test func journeyRowIsCountedUnderItsOwnName() throws {
        let comparison = try Self.comparison("journey", subject: "journey-core", peer: "journey-naive")
        #expect(InstructionProbe.isCounted(comparison.benchmark))
        // The instruction gate keys its rows by name; the run's own journey count has this one.
        #expect(comparison.benchmark != InstructionCount.journeyWorkload)
    }

    /// `race` holds the work equal: the same journeys, every one racing, through `core` under the
    /// default schedule and delivered in order, so the ratio is the race's own cost.
    @Test func raceRowComparesOneCorpusUnderTwoSchedules() throws {
        _ = try Self.comparison("race", subject: "race-pct", peer: "race-sequential")
        #expect(CoreBenchmarkSuite.zeroAllocationBenchmarks.contains("race"))
        let corpus = JourneyComparisons.corpus(size: 20, raceShare: 1)
        #expect(corpus.count == 20)
        let racing = corpus.filter(\.racing).count
        #expect(racing == corpus.count)
        let calm = JourneyComparisons.corpus(size: 20, raceShare: 0).filter(\.racing).count
        #expect(calm == 0)
    }
}

@Suite struct LibcryptoAllocationTests {
    /// Signed links verify without allocating, in libcrypto too (``HMACSHA256Authenticator``'s
    /// context copies into the one it holds), and the libcrypto column still counts: the same hooks
    /// see the digest context a one-shot SHA-256 (`EVP_Digest`) allocates. The peers verify nothing.
    @Test func verificationAllocatesNothingInLibcrypto() throws {
        guard !Sanitizer.isActive else { return }
        #expect(LibcryptoAllocations.areCounted)
        let before = LibcryptoAllocations.bytes
        _ = SHA256Digest.hex(of: Array("counted".utf8))
        #expect(LibcryptoAllocations.bytes > before, "the hooks no longer see libcrypto's allocations")
        let comparisons = CoreBenchmarkSuite.comparisons(corpusSize: 1_000)
        let runner = BenchmarkRunner(repetitions: 1, sampleNanos: 100_000, allocationOperations: 1_000)
        let verify = runner.run(try #require(comparisons.first { $0.benchmark == "referrer-verify" }))
        #expect(verify.subjectBytesPerOp == 0)
        #expect(verify.subjectLibcryptoBytesPerOp == 0)
        #expect(verify.peerLibcryptoBytesPerOp == 0)
        // The whole journey allocates nothing in a release build (CoreBenchmarks' zero-allocation
        // rows); a debug build's invariant checks allocate, but never in libcrypto.
        let journey = runner.run(try #require(comparisons.first { $0.benchmark == "journey" }))
        #expect(journey.subjectLibcryptoBytesPerOp == 0)
        #expect(journey.peerLibcryptoBytesPerOp == 0)
    }
}
