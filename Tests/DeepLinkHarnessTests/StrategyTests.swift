import DeepLinkHarness
import Testing

@Suite struct StrategyTests {
    static func run(_ kinds: [StrategyKind], journeys: UInt64 = 20_000, threads: Int = 2) -> RunResult {
        Runner.run(RunConfiguration(journeys: journeys, seed: 11, threads: threads, strategies: kinds, raceShare: 0))
    }

    @Test func naiveShowsLostDuplicatedAndPrematureJourneys() {
        let result = Self.run([.naive])
        let naive = result.tallies[0]
        #expect(naive.journeys == 20_000)
        #expect(naive.total(.lost) > 100)
        #expect(naive.total(.duplicated) > 100)
        #expect(naive.total(.premature) > 10)
        // No validator and no time-to-live: hostile payloads and expired links are routed.
        #expect(naive.total(.unsafe) > 10)
        #expect(naive.total(.stale) > 10)
        // It waits for a login even where only appReady is needed.
        #expect(naive.total(.late) > 100)
        // Where it loses them: a kill before login (iOS), a disconnected referrer (Android).
        #expect(naive.count(.lost, in: ScenarioClass(platform: .ios, perturbation: .kill)) > 0)
        #expect(naive.count(.lost, in: ScenarioClass(platform: .android, perturbation: .referrerDisconnected)) > 0)
        #expect(naive.count(.duplicated, in: ScenarioClass(platform: .android, perturbation: .duplicateDelivery)) > 0)
        #expect(naive.violations.count == 1_000)
        #expect(naive.violations.map(\.index) == naive.violations.map(\.index).sorted())
    }

    @Test func fingerprintMisroutesSharedIPsAndClipboardLosesToCopies() {
        let result = Self.run([.fingerprint, .clipboard])
        let fingerprint = result.tallies[0]
        let clipboard = result.tallies[1]
        // Neither checks a nonce: a signed link opened again (the forged class) is routed again.
        func replays(_ tally: StrategyTally) -> UInt64 {
            Platform.allCases.reduce(0) {
                $0 + tally.count(.duplicated, in: ScenarioClass(platform: $1, perturbation: .forged))
            }
        }
        #expect(fingerprint.total(.misrouted) > 100)
        #expect(fingerprint.total(.duplicated) == replays(fingerprint))
        #expect(replays(fingerprint) > 0)
        #expect(clipboard.total(.lost) > 100)
        #expect(clipboard.total(.misrouted) == 0)
        #expect(clipboard.total(.duplicated) == replays(clipboard))
        // Its gate knows one login flag: only a link bound to another account routes early.
        let otherAccount = ScenarioClass(platform: .android, perturbation: .otherAccount)
        #expect(clipboard.count(.premature, in: otherAccount) > 0)
        #expect(clipboard.total(.premature) == clipboard.count(.premature, in: otherAccount))
    }

    @Test func everyJourneyIsCountedOnceRegardlessOfThreads() {
        let one = Self.run([.naive, .clipboard], journeys: 5_000, threads: 1)
        let three = Self.run([.naive, .clipboard], journeys: 5_000, threads: 3)
        for (a, b) in zip(one.tallies, three.tallies) {
            #expect(a.counts.reduce(0, +) == 5_000)
            #expect(a.counts == b.counts)
            #expect(a.violations == b.violations)
        }
    }
}
