import DeepLinkCore
import DeepLinkHarness
import Testing

/// The forged class alone: `core`, verifying signatures under `/wallet`, rejects every forgery with
/// its reason and routes a replayed signed link once; the article's snippet routes them.
@Suite struct ForgedJourneyTests {
    static func run(_ kinds: [StrategyKind], raceShare: Double = 0) -> RunResult {
        var mix = ScenarioMix.default
        mix.perturbationWeights = mix.perturbationWeights.indices.map {
            $0 == Int(Perturbation.forged.rawValue) ? 1 : 0
        }
        return Runner.run(
            RunConfiguration(journeys: 4_000, seed: 5, threads: 2, strategies: kinds, raceShare: raceShare, mix: mix)
        )
    }

    @Test func coreRejectsEveryForgeryWithItsReason() {
        let core = Self.run([.core], raceShare: 0.1).tallies[0]
        #expect(core.journeys == 4_000)
        #expect(core.violations.isEmpty, "\(core.violations.prefix(3))")
        for rejection in [LinkRejection.missingSignature, .badSignature, .unknownKey, .expiredSignature] {
            #expect(core.total(.rejected(.link(rejection))) > 300, "\(rejection.name)")
        }
        // The genuine signed link routes (its replay is refused; the route counts once).
        #expect(core.total(.routed) > 300)
        #expect(core.total(.duplicated) == 0)
    }

    @Test func naiveRoutesForgeriesAndReplays() {
        let naive = Self.run([.naive]).tallies[0]
        #expect(naive.total(.unsafe) > 300)
        #expect(naive.total(.duplicated) > 100)
        #expect(naive.total(.rejected(.link(.badSignature))) == 0)
    }

    /// The oracle's expectation comes from how each link was made, not from the core: a replay is
    /// expected only once the genuine link was consumed.
    @Test func oracleExpectsEachReasonFromTheJourney() {
        let generator = JourneyGenerator(
            seed: 5,
            mix: {
                var mix = ScenarioMix.default
                mix.perturbationWeights = mix.perturbationWeights.indices.map {
                    $0 == Int(Perturbation.forged.rawValue) ? 1 : 0
                }
                return mix
            }()
        )
        let oracle = Oracle()
        var reasons: Set<String> = []
        var replayJourneys = 0
        for index in 0..<2_000 {
            let journey = generator.journey(at: UInt64(index))
            #expect(journey.scenario.perturbation == .forged)
            let expectation = oracle.expect(journey)
            if journey.links.0 == LinkCatalog.signedLink {
                replayJourneys += 1
                #expect(!expectation.outcome.isViolation)
            } else if case .rejected(let reason) = expectation.outcome {
                reasons.insert(reason.name)
            }
        }
        #expect(reasons == ["missingSignature", "badSignature", "unknownKey", "expiredSignature"])
        #expect(replayJourneys > 200)
    }
}
