import DeepLinkHarness
import Foundation
import Synchronization
import Testing

/// A controlled schedule makes a run a function of its seed: two runs of one seed write the same
/// `outcomes.csv`, byte for byte, even when one of them shares the machine with CPU hogs. The core
/// carries a planted queue fault whose losses depend on the interleaving alone, so a race that
/// followed the machine's timing instead would show in the counts.
@Suite struct ReproducibleRunTests {
    /// Journeys per run: all racing, on two worker threads.
    static var journeys: Int { Sanitizer.isActive ? 300 : 4_000 }

    @Test func twoPCTRunsOfOneSeedWriteTheSameOutcomesWithHogsBesideOne() throws {
        let root = ReportFixtures.temporaryDirectory("reproducible")
        defer { ReportFixtures.remove(root) }
        let quiet = try Self.outcomes(in: root + "/quiet")
        let loaded = try CPUHogs.running(threads: 2) { try Self.outcomes(in: root + "/loaded") }
        #expect(quiet.count > 0)
        #expect(quiet == loaded, "outcomes.csv differs between a quiet run and one beside two CPU hogs")
        // The fault is met (it loses links), so the counts depend on the interleavings taken.
        let text = String(decoding: quiet, as: UTF8.self)
        #expect(Sanitizer.isActive || text.contains(",lost,"), "the planted fault lost nothing:\n\(text)")
    }

    /// One run's `outcomes.csv`.
    static func outcomes(in directory: String) throws -> Data {
        let arguments = [
            "run", "--journeys", String(journeys), "--seed", "7", "--threads", "2", "--strategies", "core",
            "--race-share", "1", "--schedule", "pct", "--core-faults", "consumerReadsUnpublished", "--warmup", "0",
            "--out", directory, "--quiet",
        ]
        _ = DeepLinkBench.main(arguments: arguments, io: CommandIO(stdout: { _ in }, stderr: { _ in }))
        return try Data(contentsOf: URL(fileURLWithPath: directory + "/outcomes.csv"))
    }
}

/// Threads that keep CPUs busy while `body` runs: the load a shared CI machine adds.
enum CPUHogs {
    static func running<Result>(threads: Int, _ body: () throws -> Result) rethrows -> Result {
        let stop = StopFlag()
        let finished = DispatchGroup()
        for _ in 0..<threads {
            finished.enter()
            Thread {
                while !stop.value.load(ordering: .relaxed) {}
                finished.leave()
            }.start()
        }
        defer {
            stop.value.store(true, ordering: .relaxed)
            finished.wait()
        }
        return try body()
    }

    /// Thread safety: an atomic.
    final class StopFlag: Sendable {
        let value = Atomic<Bool>(false)
    }
}
