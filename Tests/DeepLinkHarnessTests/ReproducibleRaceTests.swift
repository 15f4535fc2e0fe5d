import DeepLinkCore
import DeepLinkHarness
import Foundation
import Testing

/// Under a controlled schedule a run's outcomes are a function of its seed alone (issue 38): the
/// same racing run, once on its own and once beside CPU-burning threads, judges every journey of
/// every strategy alike, planted concurrency fault and all.
@Suite struct ReproducibleRaceTests {
    /// Enough racing journeys for the planted queue fault to lose some under the default schedule
    /// (it loses about one racing journey in a thousand: a consumer must read a slot between its
    /// claim and its publish), few enough for the sanitizer runs.
    static var journeys: UInt64 { Sanitizer.isActive ? 300 : 8_000 }

    static func run(faults: CoreStrategy.Faults, schedule: ScheduleMode) -> [StrategyTally] {
        var configuration = RunConfiguration(
            journeys: journeys,
            seed: 7,
            threads: 2,
            strategies: StrategyKind.allCases,
            raceShare: 1
        )
        configuration.coreFaults = faults
        configuration.schedule = schedule
        return Runner.run(configuration).tallies
    }

    @Test(arguments: [
        (CoreStrategy.Faults.consumerReadsUnpublished, ScheduleMode.default),
        (CoreStrategy.Faults(), .random),
    ])
    func aControlledRunJudgesAlikeUnderLoad(faults: CoreStrategy.Faults, schedule: ScheduleMode) {
        let quiet = Self.run(faults: faults, schedule: schedule)
        let loaded = CPUBurners.beside(count: 2) { Self.run(faults: faults, schedule: schedule) }
        #expect(quiet.map(\.kind) == loaded.map(\.kind))
        for (alone, beside) in zip(quiet, loaded) {
            #expect(alone.racingJourneys > 0)
            #expect(alone.counts == beside.counts, "\(alone.kind.rawValue): outcomes differ under load")
            #expect(alone.violations == beside.violations, "\(alone.kind.rawValue): violations differ under load")
        }
        if !faults.isEmpty, !Sanitizer.isActive {
            #expect(quiet[0].total(.lost) > 0, "the planted fault is not reported")
        }
    }
}
