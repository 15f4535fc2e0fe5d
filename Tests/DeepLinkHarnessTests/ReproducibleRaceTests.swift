import DeepLinkCore
import DeepLinkHarness
import Foundation
import Synchronization
import Testing

/// Under a controlled schedule a run's outcomes are a function of its seed alone (issue 38): the
/// same racing run, once on its own and once beside CPU-burning threads, judges every journey of
/// every strategy alike, planted concurrency fault and all.
@Suite struct ReproducibleRaceTests {
    /// Enough racing journeys for the planted queue fault to lose some under the default schedule
    /// (it loses about one racing journey in a thousand: a consumer must read a slot between its
    /// claim and its publish), few enough for the sanitizer runs.
    static var journeys: UInt64 { Sanitizer.isActive ? 300 : 8_000 }

    /// Burns `count` cores until `body` returns (at most `limitSeconds`, so a hung body cannot
    /// leave them spinning).
    static func besideBurners<T>(count: Int, limitSeconds: Double = 120, _ body: () -> T) -> T {
        let stop = Atomic<Bool>(false)
        let done = Atomic<Int>(0)
        let deadline = Date().addingTimeInterval(limitSeconds)
        for _ in 0..<count {
            let thread = Thread {
                var value: UInt64 = 1
                while !stop.load(ordering: .relaxed), Date() < deadline {
                    for _ in 0..<100_000 { value = value &* 6_364_136_223_846_793_005 &+ 1 }
                }
                if value == 0 { print("") }
                done.add(1, ordering: .releasing)
            }
            thread.start()
        }
        defer {
            stop.store(true, ordering: .relaxed)
            while done.load(ordering: .acquiring) < count { usleep(1_000) }
        }
        return body()
    }

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
        let loaded = Self.besideBurners(count: 2) { Self.run(faults: faults, schedule: schedule) }
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
