import DeepLinkCore
import Testing

@testable import DeepLinkHarness

/// Every strategy of a run meets the same racing deliveries (issue 35): a racing journey's raced
/// pair of events reaches each built-in strategy from two threads, through the same machinery as
/// `core`'s (two OS threads under `os`; two fibers, each on its own stack, under a controlled
/// schedule where ``RaceFibers/available``), and the run observes the threads that delivered them.
@Suite struct FairRaceTests {
    static var journeys: UInt64 { Sanitizer.isActive ? 400 : 2_000 }

    static func run(schedule: ScheduleMode, threads: Int) -> [StrategyTally] {
        var configuration = RunConfiguration(
            journeys: journeys,
            seed: 3,
            threads: threads,
            strategies: StrategyKind.allCases,
            raceShare: 1
        )
        configuration.schedule = schedule
        return Runner.run(configuration).tallies
    }

    @Test(arguments: [(ScheduleMode.default, 2), (.os, 2), (.os, 1)])
    func everyStrategyRacesOnTwoThreads(schedule: ScheduleMode, threads: Int) {
        let tallies = Self.run(schedule: schedule, threads: threads)
        #expect(tallies.map(\.kind) == StrategyKind.allCases)
        let peers = tallies.filter { $0.kind != .core }
        for tally in tallies {
            #expect(tally.racingJourneys == Self.journeys, "\(tally.kind.rawValue)")
            // Observed by the race machinery (the OS thread that delivered each input), not assumed.
            #expect(tally.racesOnTwoThreads > 0, "\(tally.kind.rawValue) never raced on two threads")
        }
        // The peers race the same pair of steps in the same journeys: the same count each.
        #expect(Set(peers.map(\.racesOnTwoThreads)).count == 1, "\(peers.map(\.racesOnTwoThreads))")
        // A racing journey without a capture followed by a gate signal has no pair to race.
        #expect(peers[0].racesOnTwoThreads > Self.journeys / 2, "\(peers[0].racesOnTwoThreads)")
        #expect(tallies[0].violations.isEmpty, "core: \(tallies[0].violations.prefix(3))")
    }

    /// The check can fail: a race whose inputs one thread delivered counts one thread.
    @Test func aRaceDeliveredOnOneThreadIsNotCountedAsTwo() {
        let race = ControlledRace()
        let target = CountingTarget()
        race.run(on: target, .step(0), schedule: .default, seed: 1, faults: 0)
        #expect(race.lastRaceThreads == 1)
        race.run(on: target, .step(0), .step(1), schedule: .default, seed: 1, faults: 0)
        #expect(race.lastRaceThreads == 2)
        #expect(target.delivered.withLock { $0 } == 3)
        race.stop()
    }

    final class CountingTarget: RaceTarget {
        let delivered = Locked(0)
        func deliver(_ input: RaceInput) { delivered.withLock { $0 += 1 } }
        func passSchedulePoints(_ pass: Bool) {}
    }
}

extension FairRaceTests {
    /// An `exec:` strategy reads one pipe: the terminal says that its racing journeys were delivered
    /// in order, and says nothing of the kind for a run of built-in strategies only.
    @Test func theTerminalSaysAnExecStrategyMetItsRacesInOrder() {
        let configuration = RunConfiguration(
            journeys: 10,
            seed: 1,
            threads: 1,
            strategies: [.core, .exec("mine")],
            raceShare: 1
        )
        var core = StrategyTally(kind: .core)
        core.racingJourneys = 10
        var exec = StrategyTally(kind: .exec("mine"))
        exec.racingJourneys = 10
        let note = "racing journeys delivered in order, not raced (one pipe; Docs/Protocol.md): exec:mine\n"
        let withExec = RunResult(
            configuration: configuration,
            tallies: [core, exec],
            wallNanos: 1,
            undecidedJourneys: 0
        )
        #expect(Self.summary(withExec).contains(note))
        let builtIn = RunResult(configuration: configuration, tallies: [core], wallNanos: 1, undecidedJourneys: 0)
        #expect(!Self.summary(builtIn).contains("delivered in order"))
    }

    static func summary(_ result: RunResult) -> String {
        let manifest = RunManifest.current(commandLine: ["deeplink-bench", "run"])
        let report = result.report(runID: "fair", manifest: manifest, peakRSSBytes: 0)
        return SummaryTable.render(result, report: report, wide: false)
    }
}
