import DeepLinkHarness
import Testing

/// One test per SPEC 3.4 rule, on hand-written scripts.
@Suite struct OracleTests {
    static let product: UInt8 = 0
    static let invite: UInt8 = 2
    static let orders: UInt8 = 4
    static let ordersRefund: UInt8 = 5

    static func journey(
        _ platform: Platform,
        _ perturbation: Perturbation = .none,
        links: (UInt8, UInt8) = (0, 0),
        taps: UInt8 = 1,
        _ events: [(JourneyEvent.Kind, UInt8, UInt32)]
    ) -> Journey {
        var journey = Journey(
            seed: 0,
            index: 0,
            scenario: ScenarioClass(platform: platform, perturbation: perturbation)
        )
        journey.links = links
        journey.linkCount = taps
        for (kind, argument, time) in events { journey.append(JourneyEvent(kind, argument, at: time)) }
        return journey
    }

    static let ok = ReferrerResult.ok.rawValue
    let oracle = Oracle(ttlSeconds: 86_400)

    @Test func routesOnceWhenReady() {
        let journey = Self.journey(
            .ios,
            links: (Self.product, 0),
            [(.tap, 0, 0), (.clipHandoffWrite, 0, 2), (.install, 0, 60), (.launch, 0, 90), (.appReady, 0, 91)]
        )
        let expectation = oracle.expect(journey)
        #expect(expectation.outcome == .routed)
        #expect(expectation.routeStep == 4)
        #expect(expectation.targetSlot == 0)
        #expect(!expectation.gateWasOpen(slot: 0, step: 3))
        #expect(expectation.gateWasOpen(slot: 0, step: 4))
    }

    @Test func neverRoutesBeforeLoginForOrders() {
        let journey = Self.journey(
            .android,
            links: (Self.orders, 0),
            [
                (.tap, 0, 0), (.storeVisit, 0, 2), (.install, 0, 60), (.launch, 0, 90), (.referrerFetch, Self.ok, 91),
                (.appReady, 0, 92), (.loginFailed, 0, 100), (.loginSucceeded, 0, 200),
            ]
        )
        let expectation = oracle.expect(journey)
        #expect(expectation.outcome == .routed)
        #expect(expectation.routeStep == 7)
        #expect(!expectation.gateWasOpen(slot: 0, step: 6))
    }

    @Test func logoutClosesTheGateAgain() {
        let journey = Self.journey(
            .android,
            .logout,
            links: (Self.orders, 0),
            [
                (.tap, 0, 0), (.storeVisit, 0, 2), (.install, 0, 60), (.launch, 0, 90), (.appReady, 0, 92),
                (.loginSucceeded, 0, 100), (.logout, 0, 200), (.referrerFetch, ReferrerResult.okDelayed.rawValue, 210),
                (.loginSucceeded, 0, 400),
            ]
        )
        let expectation = oracle.expect(journey)
        #expect(expectation.outcome == .routed)
        #expect(expectation.routeStep == 8)
        #expect(expectation.gateWasOpen(slot: 0, step: 5))
        #expect(!expectation.gateWasOpen(slot: 0, step: 7))
    }

    @Test func latestWinsAndOlderLinksAreSuperseded() {
        let journey = Self.journey(
            .ios,
            .secondTap,
            links: (Self.product, Self.invite),
            taps: 2,
            [
                (.tap, 0, 0), (.clipHandoffWrite, 0, 2), (.tap, 1, 100), (.clipHandoffWrite, 1, 102),
                (.install, 0, 160), (.launch, 0, 190), (.appReady, 0, 191),
            ]
        )
        let expectation = oracle.expect(journey)
        #expect(expectation.outcome == .superseded)
        #expect(expectation.targetSlot == 1)
        // Routing the older link is a misroute; the newer one once is correct.
        var older = StrategyObservation()
        older.route(link: Self.product, step: 6)
        #expect(oracle.classify(older, expectation: expectation, journey: journey) == .misrouted)
        var newer = StrategyObservation()
        newer.route(link: Self.invite, step: 6)
        #expect(oracle.classify(newer, expectation: expectation, journey: journey) == .superseded)
    }

    @Test func expiresAfterTheTimeToLive() {
        let journey = Self.journey(
            .ios,
            .clockJump,
            links: (Self.product, 0),
            [
                (.tap, 0, 0), (.clipHandoffWrite, 0, 2), (.install, 0, 60), (.clockJump, 0, 90_000),
                (.launch, 0, 90_010),
                (.appReady, 0, 90_011),
            ]
        )
        let expectation = oracle.expect(journey)
        #expect(expectation.outcome == .expired)
        var stale = StrategyObservation()
        stale.route(link: Self.product, step: 5)
        #expect(oracle.classify(stale, expectation: expectation, journey: journey) == .misrouted)
        #expect(oracle.classify(StrategyObservation(), expectation: expectation, journey: journey) == .expired)
    }

    @Test func redeliveredReferrerRoutesOncePerInstall() {
        let journey = Self.journey(
            .android,
            .duplicateDelivery,
            links: (Self.product, 0),
            [
                (.tap, 0, 0), (.storeVisit, 0, 2), (.install, 0, 60), (.launch, 0, 90), (.referrerFetch, Self.ok, 91),
                (.appReady, 0, 92), (.kill, 0, 500), (.launch, 0, 600), (.referrerFetch, Self.ok, 601),
                (.appReady, 0, 602),
            ]
        )
        let expectation = oracle.expect(journey)
        #expect(expectation.outcome == .routed)
        #expect(expectation.routeStep == 5)
        var twice = StrategyObservation()
        twice.route(link: Self.product, step: 5)
        twice.route(link: Self.product, step: 8)
        #expect(oracle.classify(twice, expectation: expectation, journey: journey) == .duplicated)
    }

    @Test func pendingLinkSurvivesAKill() {
        let journey = Self.journey(
            .ios,
            .kill,
            links: (Self.orders, 0),
            [
                (.tap, 0, 0), (.clipHandoffWrite, 0, 2), (.install, 0, 60), (.launch, 0, 90), (.appReady, 0, 91),
                (.kill, 0, 120), (.launch, 0, 200), (.appReady, 0, 201), (.loginSucceeded, 0, 230),
            ]
        )
        let expectation = oracle.expect(journey)
        #expect(expectation.outcome == .routed)
        #expect(expectation.routeStep == 8)
        #expect(oracle.classify(StrategyObservation(), expectation: expectation, journey: journey) == .lost)
    }

    @Test func crashBetweenConsumedMarkAndRouterIsAtMostOnce() {
        let journey = Self.journey(
            .ios,
            .crashWindow,
            links: (Self.product, 0),
            [
                (.tap, 0, 0), (.clipHandoffWrite, 0, 2), (.install, 0, 60), (.launch, 0, 90), (.crashArmed, 0, 90),
                (.appReady, 0, 91), (.kill, 0, 300), (.launch, 0, 400), (.appReady, 0, 401),
            ]
        )
        let expectation = oracle.expect(journey)
        #expect(expectation.outcome == .crashWindow)
        #expect(oracle.classify(StrategyObservation(), expectation: expectation, journey: journey) == .crashWindow)
    }

    @Test func hostilePayloadsAreRejectedWithTheirReason() {
        for (link, reason) in [(UInt8(8), RejectionReason.disallowedScheme), (9, .dotSegment), (6, .foreignHost)] {
            let journey = Self.journey(
                .android,
                .hostile,
                links: (link, 0),
                [(.tap, 0, 0), (.install, 0, 60), (.launch, 0, 90), (.referrerFetch, Self.ok, 91), (.appReady, 0, 92)]
            )
            let expectation = oracle.expect(journey)
            #expect(expectation.outcome == .rejected(reason))
            var routed = StrategyObservation()
            routed.route(link: link, step: 3)
            #expect(oracle.classify(routed, expectation: expectation, journey: journey) == .misrouted)
        }
    }

    @Test func placeholderReferrersRouteNothing() {
        for (link, outcome) in [
            (LinkCatalog.organic, JourneyOutcome.organic), (LinkCatalog.notSet, .notSet),
            (LinkCatalog.bareToken, .noLink),
        ] {
            let journey = Self.journey(
                .android,
                .organic,
                links: (link, 0),
                taps: 0,
                [(.install, 0, 60), (.launch, 0, 90), (.referrerFetch, Self.ok, 91), (.appReady, 0, 92)]
            )
            #expect(oracle.expect(journey).outcome == outcome)
        }
    }

    @Test func unsupportedReferrerApiGetsNoLinkButATimelyOtherRouteIsFine() {
        let journey = Self.journey(
            .android,
            .featureNotSupported,
            links: (Self.product, 0),
            [
                (.tap, 0, 0), (.install, 0, 60), (.launch, 0, 90),
                (.referrerFetch, ReferrerResult.featureNotSupported.rawValue, 91), (.appReady, 0, 92),
            ]
        )
        let expectation = oracle.expect(journey)
        #expect(expectation.outcome == .noLink)
        var viaClipboard = StrategyObservation()
        viaClipboard.route(link: Self.product, step: 4)
        #expect(oracle.classify(viaClipboard, expectation: expectation, journey: journey) == .routed)
        var early = StrategyObservation()
        early.route(link: Self.product, step: 2)
        #expect(oracle.classify(early, expectation: expectation, journey: journey) == .premature)
    }

    @Test func warmUniversalLinkRoutesAfterLogin() {
        let journey = Self.journey(
            .installed,
            links: (Self.ordersRefund, 0),
            [(.launch, 0, 0), (.appReady, 0, 1), (.tap, 0, 30), (.universalLinkOpen, 0, 31), (.loginSucceeded, 0, 60)]
        )
        let expectation = oracle.expect(journey)
        #expect(expectation.outcome == .routed)
        #expect(expectation.routeStep == 4)
        var premature = StrategyObservation()
        premature.route(link: Self.ordersRefund, step: 3)
        #expect(oracle.classify(premature, expectation: expectation, journey: journey) == .premature)
        var other = StrategyObservation()
        other.route(link: Self.product, step: 4)
        #expect(oracle.classify(other, expectation: expectation, journey: journey) == .misrouted)
    }
}
