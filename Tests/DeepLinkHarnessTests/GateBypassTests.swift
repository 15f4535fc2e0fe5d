import DeepLinkCore
import DeepLinkHarness
import Testing

/// The hostile class of gate-bypass links: what each link is meant to be comes from the catalog
/// (by hand), the oracle judges a gate that misses one as premature, `core` shows no violation
/// and the article's snippet does.
@Suite struct GateBypassTests {
    /// A mix of gate-bypass journeys only.
    static let mix: ScenarioMix = {
        var mix = ScenarioMix.default
        mix.perturbationWeights = mix.perturbationWeights.indices.map {
            $0 == Int(Perturbation.gateBypass.rawValue) ? 1 : 0
        }
        return mix
    }()

    static func outcomes(of strategy: inout some Strategy, journeys: UInt64) -> [String: Int] {
        CoreStrategyTests.outcomes(
            of: &strategy,
            journeys: journeys,
            generator: JourneyGenerator(seed: 11, mix: mix),
            mix: mix,
            expecting: .gateBypass
        )
    }

    /// The class's links are each either the orders screen (behind the login gate) or a refusal,
    /// and the generator draws only those; the URL form leaves out the referrer-only one.
    @Test func theClassIsOrdersLinksOrRefusals() {
        var refusals: Set<String> = []
        for id in LinkCatalog.gateBypassLinks {
            switch LinkCatalog.entry(id).verdict {
            case .route(let canonical, let needsLogin):
                #expect(needsLogin && canonical.lowercased().hasPrefix("/orders"), "\(LinkCatalog.entry(id).name)")
            case .reject(let reason):
                refusals.insert(reason.name)
            case .organic, .notSet, .noPayload:
                Issue.record("\(LinkCatalog.entry(id).name) is no link")
            }
        }
        #expect(
            refusals == ["encodedDelimiter", "invisibleCharacter", "malformedPercentEscape", "duplicatePayloadKey"]
        )
        #expect(LinkCatalog.gateBypassURLLinks.allSatisfy { !LinkCatalog.entry($0).url.isEmpty })
        #expect(Set(LinkCatalog.gateBypassLinks).subtracting(LinkCatalog.gateBypassURLLinks).count == 1)
        let generator = JourneyGenerator(seed: 5, mix: Self.mix)
        var drawn: Set<UInt8> = []
        for index in 0..<2_000 {
            let journey = generator.journey(at: UInt64(index))
            drawn.insert(journey.links.0)
            let pool =
                journey.scenario.platform == .android ? LinkCatalog.gateBypassLinks : LinkCatalog.gateBypassURLLinks
            #expect(pool.contains(journey.links.0))
        }
        #expect(drawn == Set(LinkCatalog.gateBypassLinks))
    }

    /// A gate that compares the raw bytes with `/orders/` lets `/%6Frders/42` through before the
    /// login: the oracle calls that route premature.
    @Test func aRouteBeforeLoginIsPremature() throws {
        let encodedLetter = try #require(
            LinkCatalog.gateBypassLinks.first { LinkCatalog.entry($0).name == "encodedLetter" }
        )
        var journey = Journey(seed: 0, index: 0, scenario: ScenarioClass(platform: .android, perturbation: .gateBypass))
        journey.links = (encodedLetter, 0)
        journey.linkCount = 1
        let ok = ReferrerResult.ok.rawValue
        for (kind, argument, time): (JourneyEvent.Kind, UInt8, UInt32) in [
            (.tap, 0, 0), (.storeVisit, 0, 2), (.install, 0, 60), (.launch, 0, 90), (.referrerFetch, ok, 91),
            (.appReady, 0, 92), (.loginSucceeded, 0, 200),
        ] {
            journey.append(JourneyEvent(kind, argument, at: time))
        }
        let oracle = Oracle()
        let expectation = oracle.expect(journey)
        #expect(expectation.outcome == .routed)
        #expect(expectation.routeStep == 6)
        var early = StrategyObservation()
        early.route(link: encodedLetter, step: 5)
        #expect(oracle.classify(early, expectation: expectation, journey: journey) == .premature)
        var onTime = StrategyObservation()
        onTime.route(link: encodedLetter, step: 6)
        #expect(oracle.classify(onTime, expectation: expectation, journey: journey) == .routed)
    }

    @Test func coreHasNoViolationsAndTheSnippetHas() {
        var core = CoreStrategy(context: StrategyContext(mix: Self.mix))
        let coreCounts = Self.outcomes(of: &core, journeys: 3_000)
        for violation in JourneyOutcome.violations {
            #expect(coreCounts[violation.name, default: 0] == 0, "core \(violation.name): \(coreCounts)")
        }
        #expect(coreCounts["routed", default: 0] > 100)
        #expect(coreCounts["expired", default: 0] > 100, "gated links whose user never logs in expire")
        for reason in ["encodedDelimiter", "invisibleCharacter", "malformedPercentEscape", "duplicatePayloadKey"] {
            #expect(coreCounts["rejected:\(reason)", default: 0] > 20, "\(reason): \(coreCounts)")
        }
        var naive = NaiveStrategy(context: StrategyContext(mix: Self.mix))
        let naiveCounts = Self.outcomes(of: &naive, journeys: 3_000)
        #expect(naiveCounts["unsafe", default: 0] > 100, "the snippet routes what must be refused: \(naiveCounts)")
    }
}
