/// The fixed conformance suite (`deeplink-bench conform`, `Docs/Conformance.md`): one hand-written
/// journey per rule of the spec, each run through a strategy and judged by the ``Oracle`` from the
/// strategy's own account, exactly as `run` judges generated journeys.
///
/// Every journey is written out event by event below. Links are ``LinkCatalog`` ids: 0 `product`,
/// 4 `orders` (needs login), 5 `ordersRefund` (needs login, has a query), 6 `openRedirect`,
/// 8 `javascript`, 15 `organic`, 19 `encodedLetter` (`/%6Frders/42`), 22 `upperCase`
/// (`/Orders/42`), 28 `teamInvite` (bound to alice), 29 the signed `/wallet` link and 30…33 its
/// forgeries.
///
/// Thread safety: immutable static data and pure functions; `Sendable`.
public enum ConformanceSuite {
    /// The time-to-live the suite runs with (the default mix's; `hello` announces it).
    public static let ttlSeconds: UInt32 = StrategyContext(mix: .default).ttlSeconds

    /// Every rule, in checklist order.
    public static let rules: [ConformanceRule] = {
        let product: UInt8 = 0
        let orders: UInt8 = 4
        let ordersRefund: UInt8 = 5
        let openRedirect: UInt8 = 6
        let javascript: UInt8 = 8
        let encodedLetter: UInt8 = 19
        let upperCase: UInt8 = 22
        let teamInvite = LinkCatalog.accountLinks[0]
        let alice = LinkCatalog.linkAccount
        let someoneElse = LinkCatalog.otherAccount
        let signed = LinkCatalog.signedLink
        let specs: [(String, String, String, Journey)] = [
            (
                "routes-an-open-link-without-login", "SPEC 3.4 exactly once (at least once)",
                "An App Clip link to /product/ is routed as soon as the app is ready; it needs no login.",
                script(.ios, .none, [product], iosInstall + [e(.launch, at: 80), e(.appReady, at: 82)])
            ),
            (
                "waits-for-app-ready", "SPEC 3.4 never early",
                "A restored session before appReady does not route /orders/ early: every route waits for appReady.",
                script(
                    .ios,
                    .none,
                    [orders],
                    iosInstall + [e(.launch, at: 80), e(.sessionRestored, at: 81), e(.appReady, at: 84)]
                )
            ),
            (
                "waits-for-login-on-orders", "SPEC 3.4 never early (route policy)",
                "A referrer link to /orders/ waits after appReady until loggedIn, and is routed then.",
                script(
                    .android,
                    .lateLogin,
                    [orders],
                    androidInstall + [
                        e(.launch, at: 70), e(.referrerFetch, at: 71), e(.appReady, at: 73),
                        e(.loginSucceeded, at: 200),
                    ]
                )
            ),
            (
                "a-logout-closes-the-gate", "SPEC 3.4 never early (logout)",
                "A logout before routing closes the login gate again: /orders/ waits for the next login.",
                script(
                    .android,
                    .logout,
                    [orders],
                    androidInstall + [
                        e(.launch, at: 70), e(.referrerFetch, at: 71), e(.loginSucceeded, at: 75),
                        e(.logout, at: 90), e(.appReady, at: 93), e(.loginSucceeded, at: 400),
                    ]
                )
            ),
            (
                "survives-a-kill-before-login", "SPEC 3.4 durability",
                "A clip link read at launch and killed before login is routed after the relaunch's login.",
                script(
                    .ios,
                    .kill,
                    [orders],
                    iosInstall + [
                        e(.launch, at: 80), e(.appReady, at: 82), e(.kill, at: 300), e(.launch, at: 310),
                        e(.appReady, at: 312), e(.loginSucceeded, at: 400),
                    ]
                )
            ),
            (
                "routes-a-redelivered-referrer-once", "SPEC 3.4 duplicates",
                "Play hands the same referrer to the next launch: it is not routed a second time.",
                script(
                    .android,
                    .duplicateDelivery,
                    [orders],
                    androidInstall + [
                        e(.launch, at: 70), e(.referrerFetch, at: 71), e(.appReady, at: 73),
                        e(.loginSucceeded, at: 120), e(.kill, at: 600), e(.launch, at: 700),
                        e(.sessionRestored, at: 700), e(.referrerFetch, at: 701), e(.appReady, at: 703),
                    ]
                )
            ),
            (
                "reads-a-clip-handoff-once", "SPEC 3.4 duplicates",
                "A clip handoff that was routed is not routed again by a later launch.",
                script(
                    .ios,
                    .duplicateDelivery,
                    [orders],
                    iosInstall + [
                        e(.launch, at: 80), e(.appReady, at: 82), e(.loginSucceeded, at: 120), e(.kill, at: 600),
                        e(.launch, at: 700), e(.sessionRestored, at: 700), e(.appReady, at: 703),
                    ]
                )
            ),
            (
                "latest-link-wins", "SPEC 3.4 latest wins",
                "Two clip runs before the install: the newer link (/orders/42) is routed, the older one never.",
                script(
                    .ios,
                    .secondTap,
                    [product, orders],
                    clipTap(0, at: 0) + clipTap(1, at: 100) + [
                        e(.storeVisit, 1, at: 110), e(.install, at: 170), e(.launch, at: 180), e(.appReady, at: 182),
                        e(.loginSucceeded, at: 240),
                    ]
                )
            ),
            (
                "keeps-the-query", "SPEC 3.2 canonical path and query, 3.6",
                "The router sees the link's query too: /orders/9/refund?step=2, not /orders/9/refund.",
                script(
                    .ios,
                    .none,
                    [ordersRefund],
                    iosInstall + [
                        e(.launch, at: 80), e(.appReady, at: 82), e(.loginSucceeded, at: 120),
                    ]
                )
            ),
            (
                "rejects-javascript-payloads", "SPEC 3.2 disallowed scheme",
                "A referrer carrying deeplink=javascript:alert(1) is rejected and nothing is routed.",
                script(
                    .android,
                    .hostile,
                    [javascript],
                    androidInstall + [
                        e(.launch, at: 70), e(.referrerFetch, at: 71), e(.appReady, at: 73),
                        e(.loginSucceeded, at: 120),
                    ]
                )
            ),
            (
                "rejects-a-foreign-host", "SPEC 3.2 foreign host",
                "A clip URL on another host (https://evil.example/login, an open redirect) is never routed.",
                script(
                    .ios,
                    .hostile,
                    [openRedirect],
                    iosInstall + [
                        e(.launch, at: 80), e(.appReady, at: 82), e(.loginSucceeded, at: 120),
                    ]
                )
            ),
            (
                "expires-after-the-ttl", "SPEC 3.4 expiry",
                "A clip link whose gate opens only after its time-to-live (from the handoff) is dropped, never routed.",
                script(
                    .ios,
                    .clockJump,
                    [orders],
                    iosInstall + [
                        e(.launch, at: 80), e(.appReady, at: 82), e(.clockJump, at: 82 + ttlSeconds + 3_600),
                        e(.loginSucceeded, at: 100 + ttlSeconds + 3_600),
                    ]
                )
            ),
            (
                "organic-install-routes-nothing", "SPEC 3.1 placeholders",
                "Play's organic placeholder (utm_medium=organic, no tap) routes nothing.",
                script(
                    .android,
                    .organic,
                    [LinkCatalog.organic],
                    tapped: 0,
                    [
                        e(.install, at: 20), e(.launch, at: 30), e(.referrerFetch, at: 31), e(.appReady, at: 33),
                        e(.loginSucceeded, at: 60),
                    ]
                )
            ),
            (
                "routes-a-warm-universal-link-after-login", "SPEC 3.4 never early, 4.1 app already installed",
                "The running app opened by a universal link to /orders/ routes it at the login that follows.",
                script(
                    .installed,
                    .none,
                    [orders],
                    [
                        e(.launch, at: 0), e(.appReady, at: 2), e(.tap, at: 100), e(.universalLinkOpen, at: 101),
                        e(.loginSucceeded, at: 160),
                    ]
                )
            ),
            (
                "retries-after-service-disconnected", "SPEC 4.1 referrer fetch",
                "SERVICE_DISCONNECTED, then a retry in the same launch answers OK: that referrer is routed.",
                script(
                    .android,
                    .referrerDisconnected,
                    [orders],
                    androidInstall + [
                        e(.launch, at: 70),
                        e(.referrerFetch, ReferrerResult.serviceDisconnected.rawValue, at: 71),
                        e(.referrerRetry, ReferrerResult.ok.rawValue, at: 73), e(.appReady, at: 75),
                        e(.loginSucceeded, at: 120),
                    ]
                )
            ),
            (
                "gates-a-differently-cased-path", "SPEC 3.2 canonical form, 3.4 never early (route policy)",
                "/Orders/42 is the orders screen to a case-folding router: it waits for loggedIn like /orders/42.",
                referrerThenLogin(upperCase, .gateBypass)
            ),
            (
                "gates-a-percent-encoded-letter", "SPEC 3.2 canonical form, 3.4 never early (route policy)",
                "/%6Frders/42 is /orders/42 once decoded: it waits for loggedIn, and the router gets /orders/42.",
                referrerThenLogin(encodedLetter, .gateBypass)
            ),
            (
                "routes-an-account-bound-link-only-for-its-account", "SPEC 3.4 never early (account-bound links)",
                "An invite bound to alice waits through another account's login and routes at alice's.",
                script(
                    .android,
                    .otherAccount,
                    [teamInvite],
                    androidInstall + [
                        e(.launch, at: 70), e(.referrerFetch, at: 71), e(.appReady, at: 73),
                        e(.loginSucceeded, someoneElse, at: 100), e(.logout, at: 150),
                        e(.loginSucceeded, alice, at: 200),
                    ]
                )
            ),
            (
                "refuses-a-replayed-signed-link", "SPEC 3.2 signed links (single-use nonce)",
                "A signed /wallet link routes once; opened again, its used nonce is refused as rejected:replayed.",
                warmOpen(signed, .forged, openedTwice: true)
            ),
            (
                "rejects-an-unsigned-link-under-a-signed-prefix", "SPEC 3.2 signed links",
                "A /wallet link without a signature is refused (rejected:missingSignature), never routed.",
                warmOpen(LinkCatalog.forgedLinks[0], .forged)
            ),
            (
                "rejects-a-tampered-signed-link", "SPEC 3.2 signed links",
                "A signed /wallet link whose query was changed after signing is refused (rejected:badSignature).",
                warmOpen(LinkCatalog.forgedLinks[1], .forged)
            ),
            (
                "rejects-an-expired-signature", "SPEC 3.2 signed links",
                "A correctly signed /wallet link past its dl_exp is refused (rejected:expiredSignature).",
                warmOpen(LinkCatalog.forgedLinks[2], .forged)
            ),
            (
                "rejects-a-signature-by-an-unknown-key", "SPEC 3.2 signed links",
                "A /wallet link signed with a key the app does not have is refused (rejected:unknownKey).",
                warmOpen(LinkCatalog.forgedLinks[3], .forged)
            ),
            (
                "offers-a-declined-link-again", "SPEC 3.4 exactly once (router not ready)",
                "The router answers notReady to the first route call: the link stays pending and is routed again.",
                {
                    var journey = script(
                        .ios,
                        .none,
                        [product],
                        iosInstall + [e(.launch, at: 80), e(.appReady, at: 82)]
                    )
                    journey.routerNotReady = true
                    return journey
                }()
            ),
            (
                "a-redelivered-referrer-is-not-a-new-link", "SPEC 3.4 duplicates (reasons)",
                "Play re-delivers a pending referrer after a kill: one link, routed at login, nothing superseded.",
                script(
                    .android,
                    .duplicateDelivery,
                    [orders],
                    androidInstall + [
                        e(.launch, at: 70), e(.referrerFetch, at: 71), e(.appReady, at: 73), e(.kill, at: 300),
                        e(.launch, at: 310), e(.referrerFetch, at: 311), e(.appReady, at: 313),
                        e(.loginSucceeded, at: 400),
                    ]
                )
            ),
        ]
        return specs.enumerated().map { position, spec in
            var journey = spec.3
            journey.index = UInt64(position)
            return ConformanceRule(name: spec.0, spec: spec.1, checks: spec.2, journey: journey)
        }
    }()

    /// The rule named `name`, or nil.
    public static func rule(named name: String) -> ConformanceRule? { rules.first { $0.name == name } }

    /// Runs `rules` through one strategy of `kind` (in one batch, as `run` sends a chunk) and
    /// judges each journey with the oracle from what the strategy reported.
    public static func check(
        _ rules: [ConformanceRule],
        strategy kind: StrategyKind,
        context: StrategyContext
    ) -> [ConformanceResult] {
        let oracle = Oracle(ttlSeconds: context.ttlSeconds)
        var strategy = kind.make(context: context)
        strategy.prepare(rules.map(\.journey))
        var results: [ConformanceResult] = []
        for rule in rules {
            var observation = StrategyObservation()
            strategy.run(rule.journey, into: &observation)
            let expectation = oracle.expect(rule.journey)
            let outcome = oracle.classify(
                observation,
                expectation: expectation,
                journey: rule.journey,
                distinctions: strategy.distinctions
            )
            results.append(
                ConformanceResult(
                    rule: rule,
                    expectation: expectation,
                    outcome: outcome,
                    observation: observation,
                    distinctions: strategy.distinctions
                )
            )
        }
        strategy.finish()
        return results
    }

    // MARK: Writing journeys

    /// One event.
    static func e(_ kind: JourneyEvent.Kind, _ argument: UInt8 = 0, at seconds: UInt32) -> JourneyEvent {
        JourneyEvent(kind, argument, at: seconds)
    }

    /// iOS: a tap on link `slot` at `time`; the App Clip runs and writes its handoff.
    static func clipTap(_ slot: UInt8, at time: UInt32) -> [JourneyEvent] {
        [e(.tap, slot, at: time), e(.clipInvoked, slot, at: time + 2), e(.clipHandoffWrite, slot, at: time + 3)]
    }

    /// iOS: one tap, the clip's handoff, the App Store, the install.
    static let iosInstall: [JourneyEvent] = clipTap(0, at: 0) + [e(.storeVisit, at: 12), e(.install, at: 70)]

    /// Android: one tap, the Play listing (it carries the referrer), the install.
    static let androidInstall: [JourneyEvent] = [e(.tap, at: 0), e(.storeVisit, at: 3), e(.install, at: 60)]

    /// Android: a referrer for `link` read at launch, `appReady`, and a login two minutes later.
    static func referrerThenLogin(_ link: UInt8, _ perturbation: Perturbation) -> Journey {
        script(
            .android,
            perturbation,
            [link],
            androidInstall + [
                e(.launch, at: 70), e(.referrerFetch, at: 71), e(.appReady, at: 73), e(.loginSucceeded, at: 200),
            ]
        )
    }

    /// The running, logged-in app opened by a universal link to `link` (and, `openedTwice`, by the
    /// same link again ten minutes later).
    static func warmOpen(_ link: UInt8, _ perturbation: Perturbation, openedTwice: Bool = false) -> Journey {
        var events = [
            e(.launch, at: 0), e(.appReady, at: 2), e(.sessionRestored, LinkCatalog.linkAccount, at: 3),
            e(.tap, at: 100),
            e(.universalLinkOpen, at: 101),
        ]
        if openedTwice { events += [e(.tap, at: 700), e(.universalLinkOpen, at: 701)] }
        return script(.installed, perturbation, [link], events)
    }

    /// A journey on `platform` whose taps are `links` (catalog ids; `tapped` of them were tapped,
    /// 0 for a referrer Play hands over without a tap) and whose script is `events`.
    static func script(
        _ platform: Platform,
        _ perturbation: Perturbation,
        _ links: [UInt8],
        tapped: UInt8? = nil,
        _ events: [JourneyEvent]
    ) -> Journey {
        let scenario = ScenarioClass(platform: platform, perturbation: perturbation)
        var journey = Journey(seed: 0, index: 0, scenario: scenario)
        journey.links = (links[0], links.count > 1 ? links[1] : 0)
        journey.linkCount = tapped ?? UInt8(links.count)
        for event in events { journey.append(event) }
        return journey
    }
}
