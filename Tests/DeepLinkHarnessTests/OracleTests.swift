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
        // "Superseded" only when the strategy itself reports dropping the older link.
        #expect(oracle.classify(newer, expectation: expectation, journey: journey) == .routed)
        newer.reported.insert(.superseded)
        #expect(oracle.classify(newer, expectation: expectation, journey: journey) == .superseded)
    }

    /// The older of two clip links expires in the oracle before the newer one's login: the route
    /// is judged, and "superseded" for the older link is not called misjudged (a strategy may
    /// decide the older link while it is still live, before the oracle's route time); with no
    /// expiry, a superseded link reported where none was is misjudged.
    @Test func anOlderLinkExpiredBeforeTheRouteMayBeReportedSuperseded() {
        let journey = Self.journey(
            .ios,
            .secondTap,
            links: (Self.product, Self.orders),
            taps: 2,
            [
                (.tap, 0, 0), (.clipHandoffWrite, 0, 2), (.tap, 1, 100), (.clipHandoffWrite, 1, 102),
                (.install, 0, 160), (.launch, 0, 190), (.appReady, 0, 191), (.loginSucceeded, 0, 86_500),
            ]
        )
        let expectation = oracle.expect(journey)
        #expect(expectation.outcome == .routed)
        #expect(expectation.otherLinkExpired)
        var observation = StrategyObservation()
        observation.route(link: Self.orders, step: 7)
        observation.reported.insert(.superseded)
        #expect(oracle.classify(observation, expectation: expectation, journey: journey) == .routed)

        var unexpired = expectation
        unexpired.otherLinkExpired = false
        #expect(oracle.classify(observation, expectation: unexpired, journey: journey) == .misjudged)
    }

    /// Journey 238 of seed 1: the route at login dies in the crash window. A program that does
    /// not model `crashArmed` (serve-core under `kill: signal`) routes there; that is a route.
    @Test func theRouteACrashInterruptedIsARouteForAProgramThatDoesNotModelCrashes() {
        let journey = Self.journey(
            .ios,
            .crashWindow,
            links: (Self.orders, 0),
            [
                (.tap, 0, 0), (.clipHandoffWrite, 0, 3), (.install, 0, 110), (.launch, 0, 141),
                (.crashArmed, 0, 141), (.appReady, 0, 144), (.loginSucceeded, 0, 240), (.kill, 0, 587),
                (.launch, 0, 616), (.sessionRestored, 0, 616), (.appReady, 0, 618),
            ]
        )
        let expectation = oracle.expect(journey)
        #expect(expectation.outcome == .crashWindow)
        #expect(expectation.crashStep == 6)
        var routedAtTheCrash = StrategyObservation()
        routedAtTheCrash.route(link: Self.orders, step: 6)
        var withoutCrashes = StrategyObservation.Reasons.all
        withoutCrashes.remove(.crashWindow)
        #expect(
            oracle.classify(routedAtTheCrash, expectation: expectation, journey: journey, distinctions: withoutCrashes)
                == .routed
        )
        // A program that claims to model the crash and routes anyway is not excused.
        #expect(oracle.classify(routedAtTheCrash, expectation: expectation, journey: journey) != .routed)
        // Nor is a route before the login, modelled crashes or not.
        var early = StrategyObservation()
        early.route(link: Self.orders, step: 5)
        #expect(
            oracle.classify(early, expectation: expectation, journey: journey, distinctions: withoutCrashes)
                == .premature
        )
    }

    /// Seed 1, journey 14171 with a two-minute time-to-live: the universal link's step races the
    /// login three hours later; a strategy that takes the login's time as "now" finds the link
    /// expired, which is not a lost link. Without the race, or when the later step comes within
    /// the time-to-live, it is.
    @Test func aLinkRacedWithAStepPastItsTimeToLiveMayBeReportedExpired() {
        let journey = Self.journey(
            .installed,
            .lateLogin,
            links: (Self.invite, 0),
            [
                (.launch, 0, 0), (.appReady, 0, 1), (.tap, 0, 503), (.universalLinkOpen, 0, 505),
                (.loginSucceeded, 0, 11_887),
            ]
        )
        let shortLived = Oracle(ttlSeconds: 120)
        let expectation = shortLived.expect(journey)
        #expect(expectation.outcome == .routed)
        #expect(expectation.routeStep == 3)
        var expired = StrategyObservation()
        expired.reported.insert(.expired)
        expired.raceStep = 3
        #expect(shortLived.classify(expired, expectation: expectation, journey: journey) == .expired)
        var notRaced = expired
        notRaced.raceStep = -1
        #expect(shortLived.classify(notRaced, expectation: expectation, journey: journey) == .lost)
        let longLived = Oracle(ttlSeconds: 86_400)
        #expect(longLived.classify(expired, expectation: longLived.expect(journey), journey: journey) == .lost)
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
        #expect(oracle.classify(stale, expectation: expectation, journey: journey) == .stale)
        // The verdict comes from the strategy's own account, never from the expectation.
        var expired = StrategyObservation()
        expired.reported.insert(.expired)
        #expect(oracle.classify(expired, expectation: expectation, journey: journey) == .expired)
        #expect(oracle.classify(StrategyObservation(), expectation: expectation, journey: journey) == .misjudged)
        var superseded = StrategyObservation()
        superseded.reported.insert(.superseded)
        #expect(oracle.classify(superseded, expectation: expectation, journey: journey) == .misjudged)
        // A peer that never captured the link says "no link", truthfully.
        let peer: StrategyObservation.Reasons = [.rejected, .expired, .crashWindow]
        #expect(
            oracle.classify(StrategyObservation(), expectation: expectation, journey: journey, distinctions: peer)
                == .noLink
        )
    }

    /// Age counts from the capture (the handoff write), not the tap: with a 120 s time-to-live, a
    /// clip tapped at 0 s, written at 4 s and routed at 122 s is on time (seed 1, journey 434366).
    @Test func ageCountsFromTheCaptureNotTheTap() {
        let shortOracle = Oracle(ttlSeconds: 120)
        let journey = Self.journey(
            .ios,
            .none,
            links: (Self.product, 0),
            [(.tap, 0, 0), (.clipHandoffWrite, 0, 4), (.install, 0, 60), (.launch, 0, 121), (.appReady, 0, 122)]
        )
        let expectation = shortOracle.expect(journey)
        #expect(expectation.outcome == .routed)
        #expect(expectation.routeStep == 4)
        var routed = StrategyObservation()
        routed.route(link: Self.product, step: 4)
        #expect(shortOracle.classify(routed, expectation: expectation, journey: journey) == .routed)
        // A clock behind the capture is age 0 (the core saturates; so does the oracle).
        #expect(!Oracle.isExpired(capturedAt: 100, now: 50, ttl: 10))
        #expect(Oracle.isExpired(capturedAt: 100, now: 111, ttl: 10))
        #expect(!Oracle.isExpired(capturedAt: 100, now: 110, ttl: 10))
    }

    @Test func aRouteAfterItsStepIsLate() {
        let journey = Self.journey(
            .installed,
            links: (Self.product, 0),
            [(.launch, 0, 0), (.appReady, 0, 1), (.tap, 0, 30), (.universalLinkOpen, 0, 31), (.loginSucceeded, 0, 60)]
        )
        let expectation = oracle.expect(journey)
        #expect(expectation.routeStep == 3)
        var late = StrategyObservation()
        late.route(link: Self.product, step: 4)
        #expect(oracle.classify(late, expectation: expectation, journey: journey) == .late)
        // Two steps delivered at once may route at the later one.
        late.raceStep = 3
        #expect(oracle.classify(late, expectation: expectation, journey: journey) == .routed)
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
        var crashed = StrategyObservation()
        crashed.crashed = true
        #expect(oracle.classify(crashed, expectation: expectation, journey: journey) == .crashWindow)
        // Without its own report of the crash, a journey that routed nothing lost its link.
        #expect(oracle.classify(StrategyObservation(), expectation: expectation, journey: journey) == .lost)
    }

    @Test func hostilePayloadsAreRejectedWithTheirReason() {
        for (link, reason) in [
            (UInt8(8), RejectionReason.link(.disallowedScheme)), (9, .link(.dotSegment)), (6, .link(.foreignHost)),
        ] {
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
            #expect(oracle.classify(routed, expectation: expectation, journey: journey) == .unsafe)
            var rejected = StrategyObservation()
            rejected.reject(reason)
            #expect(oracle.classify(rejected, expectation: expectation, journey: journey) == .rejected(reason))
            var wrongReason = StrategyObservation()
            wrongReason.reject(reason == .link(.dotSegment) ? .link(.foreignHost) : .link(.dotSegment))
            #expect(oracle.classify(wrongReason, expectation: expectation, journey: journey) == .misjudged)
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
            let expectation = oracle.expect(journey)
            #expect(expectation.outcome == outcome)
            var organic = StrategyObservation()
            organic.reported.insert(.organic)
            let judged = oracle.classify(organic, expectation: expectation, journey: journey)
            #expect(judged == (outcome == .organic ? .organic : .misjudged))
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
