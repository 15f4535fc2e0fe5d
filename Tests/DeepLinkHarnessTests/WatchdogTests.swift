import DeepLinkHarness
import Testing

@Suite struct WatchdogTests {
    /// A strategy stuck on a journey does not hang the run: the watchdog reports that journey as
    /// `hung` and the run returns with what finished.
    @Test func aStuckJourneyIsReportedAsHung() throws {
        var configuration = RunConfiguration(journeys: 3_000, seed: 1, threads: 2, strategies: [.core])
        configuration.journeyTimeoutNanos = 200_000_000
        configuration.coreFaults = .stall
        let result = Runner.run(configuration)
        let hung = try #require(result.hung)
        #expect(hung.strategy == .core)
        #expect(hung.runningNanos > 200_000_000)
        let core = try #require(result.tallies.first)
        #expect(core.total(.hung) == 1)
        #expect(core.violations.contains { $0.actual == .hung && $0.index == hung.index })
        // The journey the watchdog named is one the stall fault stalls on.
        let journey = JourneyGenerator(seed: 1).journey(at: hung.index)
        #expect(journey.scenario.perturbation == .kill)
    }

    @Test func theCorrectCoreIsNeverHung() {
        var configuration = RunConfiguration(journeys: 3_000, seed: 1, threads: 2, strategies: [.core])
        configuration.journeyTimeoutNanos = 5_000_000_000
        let result = Runner.run(configuration)
        #expect(result.hung == nil)
        #expect(result.tallies.first?.total(.hung) == 0)
        #expect(result.tallies.first?.journeys == 3_000)
    }
}
