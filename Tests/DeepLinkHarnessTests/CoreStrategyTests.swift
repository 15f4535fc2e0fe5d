import DeepLinkCore
import DeepLinkHarness
import Testing

@Suite struct CoreStrategyTests {
    /// Runs `journeys` journeys of seed `seed` through `strategy` and counts outcomes by name.
    static func outcomes(
        of strategy: inout some Strategy,
        journeys: UInt64,
        seed: UInt64 = 3,
        raceShare: Double = 0
    ) -> [String: Int] {
        outcomes(of: &strategy, journeys: journeys, generator: JourneyGenerator(seed: seed, raceShare: raceShare))
    }

    /// Runs the first `journeys` journeys of `generator` through `strategy`, judged by an oracle of
    /// `mix`, and counts outcomes by name.
    static func outcomes(
        of strategy: inout some Strategy,
        journeys: UInt64,
        generator: JourneyGenerator,
        mix: ScenarioMix = .default,
        expecting perturbation: Perturbation? = nil
    ) -> [String: Int] {
        let oracle = Oracle(mix: mix)
        var counts: [String: Int] = [:]
        for index in 0..<journeys {
            let journey = generator.journey(at: index)
            if let perturbation { #expect(journey.scenario.perturbation == perturbation) }
            var observation = StrategyObservation()
            strategy.run(journey, into: &observation)
            let outcome = oracle.classify(
                observation,
                expectation: oracle.expect(journey),
                journey: journey,
                distinctions: strategy.distinctions
            )
            counts[outcome.name, default: 0] += 1
        }
        strategy.finish()
        return counts
    }

    static var journeys: UInt64 { Sanitizer.isActive ? 4_000 : 20_000 }

    @Test func coreHasNoViolations() {
        var core = CoreStrategy(context: StrategyContext(mix: .default))
        let counts = Self.outcomes(of: &core, journeys: Self.journeys)
        for violation in JourneyOutcome.violations {
            #expect(counts[violation.name, default: 0] == 0, "core \(violation.name): \(counts)")
        }
        #expect(counts["routed", default: 0] > Int(Self.journeys) / 3)
        #expect(counts["superseded", default: 0] > 0)
        #expect(counts["crashWindow", default: 0] > 0)
        #expect(counts["expired", default: 0] > 0)
        #expect(counts["rejected:dotSegment", default: 0] > 0)
    }

    @Test func coreUnderRacingDeliveryHasNoViolations() {
        var core = CoreStrategy(context: StrategyContext(mix: .default))
        let generator = JourneyGenerator(seed: 4, raceShare: 1)
        let oracle = Oracle()
        var violations: [String: Int] = [:]
        var routed = 0
        for index in 0..<(Self.journeys / 4) {
            let journey = generator.journey(at: index)
            var observation = StrategyObservation()
            core.run(journey, into: &observation)
            let outcome = oracle.classify(observation, expectation: oracle.expect(journey), journey: journey)
            if outcome == .routed { routed += 1 }
            if outcome.isViolation { violations["\(journey.scenario.name) \(outcome.name)", default: 0] += 1 }
        }
        core.finish()
        #expect(routed > 0)
        #expect(violations.isEmpty, "core violations under racing delivery: \(violations)")
    }

    /// A racing journey's capture goes through the example app's public capture call whatever it
    /// holds: a referrer or universal link the core rejects races its signal too, and the rejection
    /// the call returned is the journey's.
    @Test func rejectedPayloadsRaceThroughThePublicCaptureCall() {
        var core = CoreStrategy(context: StrategyContext(mix: .default))
        let generator = JourneyGenerator(seed: 4, raceShare: 1)
        let oracle = Oracle()
        var raced = 0
        for index in 0..<(Self.journeys / 4) {
            let journey = generator.journey(at: index)
            guard case .rejected(let reason) = oracle.expect(journey).outcome else { continue }
            var observation = StrategyObservation()
            core.run(journey, into: &observation)
            guard observation.raceStep >= 0 else { continue }
            switch journey.events.span[observation.raceStep].kind {
            case .referrerFetch, .referrerRetry, .universalLinkOpen:
                raced += 1
                #expect(observation.rejection == reason, "journey \(index)")
            default:
                break
            }
        }
        core.finish()
        #expect(raced > 0)
    }

    /// Each fault of the catalogue, over a scaled-down default mix, is reported as violations of
    /// the class the catalogue names (and the correct core, above, shows none).
    @Test(arguments: CoreStrategy.Faults.catalogue.map(\.name))
    func brokenCoreVariantsAreFlagged(fault name: String) throws {
        let entry = try #require(CoreStrategy.Faults.catalogue.first { $0.name == name })
        var broken = CoreStrategy(context: StrategyContext(mix: .default), faults: entry.fault)
        let counts = Self.outcomes(of: &broken, journeys: Sanitizer.isActive ? 2_000 : 5_000)
        #expect(counts[entry.expected.name, default: 0] > 5, "\(name): \(entry.expected.name) not flagged: \(counts)")
    }

    @Test func replayShowsCoreOutcome() throws {
        var command = try ReplayCommand(
            arguments: ArgumentParser.parse(
                ["--seed", "3", "--journey", "5", "--strategies", "core"],
                options: ReplayCommand.configuration.options
            )
        )
        var text = ""
        let io = CommandIO(stdout: { text += $0 }, stderr: { _ in })
        #expect(try command.run(io: io) == 0)
        #expect(text.contains("core:"))
        #expect(text.contains("expected:"))
    }
}
