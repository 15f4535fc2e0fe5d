import DeepLinkHarness
import Testing

@Suite struct JourneyGeneratorTests {
    /// Everything a journey is made of, as one comparable string.
    static func fingerprint(_ journey: Journey) -> String {
        "\(journey.seed)/\(journey.index) \(journey.scenario.name) \(journey.links.0),\(journey.links.1)x"
            + "\(journey.linkCount) \(journey.world) racing=\(journey.racing) | \(journey.trace)"
    }

    @Test func sameSeedAndIndexGiveTheSameJourneyInAnyOrder() {
        let first = JourneyGenerator(seed: 42, raceShare: 0.1)
        let second = JourneyGenerator(seed: 42, raceShare: 0.1)
        let indices: [UInt64] = Array(0..<2_000) + [1 << 40, UInt64.max, UInt64.max - 1]
        let forward = indices.map { Self.fingerprint(first.journey(at: $0)) }
        var backward = [String](repeating: "", count: indices.count)
        for position in indices.indices.reversed() {
            backward[position] = Self.fingerprint(second.journey(at: indices[position]))
        }
        #expect(forward == backward)
        // A different seed gives different journeys.
        let other = JourneyGenerator(seed: 43, raceShare: 0.1)
        let differing = indices.prefix(200).filter { Self.fingerprint(other.journey(at: $0)) != forward[Int($0)] }
        #expect(differing.count > 150)
    }

    @Test func raceShareOnlyFlipsTheRacingFlag() {
        let calm = JourneyGenerator(seed: 7, raceShare: 0)
        let racing = JourneyGenerator(seed: 7, raceShare: 1)
        for index: UInt64 in 0..<500 {
            let a = calm.journey(at: index)
            let b = racing.journey(at: index)
            #expect(a.trace == b.trace)
            #expect(!a.racing && b.racing)
        }
    }

    @Test func coversEveryEventPerturbationAndReferrerResult() {
        let generator = JourneyGenerator(seed: 1)
        let oracle = Oracle()
        var kinds = Set<JourneyEvent.Kind>()
        var results = Set<ReferrerResult>()
        var classes = Set<String>()
        var outcomes = Set<String>()
        var longest = 0
        for index: UInt64 in 0..<30_000 {
            let journey = generator.journey(at: index)
            longest = max(longest, journey.eventCount)
            classes.insert(journey.scenario.name)
            var previous: UInt32 = 0
            for step in 0..<journey.eventCount {
                let event = journey.events[step]
                kinds.insert(event.kind)
                if event.kind == .referrerFetch || event.kind == .referrerRetry { results.insert(event.referrerResult) }
                // Time runs forwards, except where the clock is set back (and only with that extra).
                let setBack = event.kind == .clockJump && event.argument == JourneyEvent.clockBack
                #expect(event.atSeconds >= previous || setBack, "time runs backwards in journey \(index)")
                #expect(!setBack || journey.extras.contains(.clockBackwards))
                previous = event.atSeconds
            }
            let expectation = oracle.expect(journey)
            #expect(!expectation.endedPending, "journey \(index) ends undecided: \(journey.trace)")
            outcomes.insert(expectation.outcome.name)
        }
        #expect(longest < Journey.capacity)
        #expect(kinds == Set(JourneyEvent.Kind.allCases))
        #expect(results == Set(ReferrerResult.allCases))
        for platform in Platform.allCases {
            for perturbation in Perturbation.allCases where perturbation.applies(to: platform) {
                #expect(classes.contains(ScenarioClass(platform: platform, perturbation: perturbation).name))
            }
        }
        for name in [
            "routed", "superseded", "expired", "organic", "notSet", "noLink", "crashWindow", "rejected:dotSegment",
            "rejected:disallowedScheme", "rejected:foreignHost", "rejected:schemeRelative", "rejected:controlCharacter",
            "rejected:tooLong", "rejected:backslash", "rejected:invalidUTF8",
        ] {
            #expect(outcomes.contains(name), "no journey expects \(name)")
        }
    }

    @Test func scenarioClassDenseIndexRoundTrips() {
        for index in 0..<ScenarioClass.count {
            #expect(ScenarioClass(denseIndex: index).denseIndex == index)
        }
        for index in 0..<JourneyOutcome.count {
            #expect(JourneyOutcome(denseIndex: index).denseIndex == index)
        }
    }
}
