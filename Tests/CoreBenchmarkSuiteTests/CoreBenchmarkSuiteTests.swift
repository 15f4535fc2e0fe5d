import CoreBenchmarkSuite
import DeepLinkHarness
import Testing

@Suite struct BenchmarkRunnerTests {
    @Test func medianOfOddAndEvenCounts() {
        #expect(BenchmarkRunner.median([]) == 0)
        #expect(BenchmarkRunner.median([3, 1, 2]) == 2)
        #expect(BenchmarkRunner.median([4, 1, 3, 2]) == 2.5)
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
        #expect(result.subjectBytesPerOp == 0 || Sanitizer.isActive)
        if !Sanitizer.isActive {
            #expect(AllocationCounter.isJemallocActive)
            #expect(result.peerBytesPerOp >= 32)
        }
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
            #expect(result.subjectBytesPerOp == 0, "\(result.benchmark) allocates")
        }
    }
}

@Suite struct JourneyComparisonTests {
    /// `journey` drives whole journeys through `core` with no harness around it: a row the
    /// instruction gate counts (one thread) under a name of its own. Not a zero-allocation row:
    /// a few journeys of the default mix allocate inside the core (2.9 B per journey over the
    /// 1,000-journey corpus).
    @Test func journeyRowIsCountedUnderItsOwnName() throws {
        let comparison = try #require(
            CoreBenchmarkSuite.comparisons(corpusSize: 20).first { $0.benchmark == "journey" }
        )
        #expect(comparison.subject.name == "journey-core")
        #expect(comparison.peer.name == "journey-naive")
        #expect(InstructionProbe.isCounted(comparison.benchmark))
        // The instruction gate keys its rows by name; the run's own journey count has this one.
        #expect(comparison.benchmark != InstructionCount.journeyWorkload)
        // More journeys than the corpus holds: the loop cycles it.
        _ = comparison.subject.run(50)
        _ = comparison.peer.run(50)
    }
}
