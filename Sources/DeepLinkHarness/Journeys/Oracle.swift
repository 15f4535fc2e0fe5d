/// The expected outcome of a journey, computed by a deliberately plain, sequential model of SPEC
/// 3.4, written without DeepLinkCore's resolver: a handoff store (pending and consumed marks that
/// survive a kill), the process's in-memory pending links and signals, and the gate rules —
/// exactly once, never early (appReady and, for `/orders/`, loggedIn; logout closes the gate; a
/// link bound to an account, only while that account is logged in),
/// latest wins, expiry after the time-to-live, duplicate suppression per install, durability
/// across kills, at-most-once across a crash in the route call, and a router that may decline its
/// first offer (the link is offered again at the next signal).
///
/// Payload verdicts come from the hand-written ``LinkCatalog``, not from the core's validator.
///
/// Thread safety: a value type; `Sendable`. ``expect(_:)`` is a pure function of the journey.
package struct Oracle: Sendable {
    /// The time-to-live, seconds.
    package var ttlSeconds: UInt32

    package init(ttlSeconds: UInt32 = 86_400) { self.ttlSeconds = ttlSeconds }

    package init(mix: ScenarioMix) { self.ttlSeconds = UInt32(min(mix.ttlSeconds, 31_536_000)) }

    /// What must happen to `journey`.
    package func expect(_ journey: Journey) -> Expectation {
        var journey = journey
        return expect(inPlace: &journey)
    }

    /// ``expect(_:)`` of a journey the caller holds in place (a batch's slot), which it leaves
    /// unchanged: `inout` only because reading a borrowed journey's events copies the journey
    /// (400 bytes) first.
    func expect(inPlace journey: inout Journey) -> Expectation {
        var model = Model(journey: journey, ttl: ttlSeconds)
        // Through a span: `journey.events[step]` in a loop copies the inline array per iteration.
        let events = journey.events.span
        for step in 0..<journey.eventCount {
            model.apply(events[step], step: step)
            model.retryDeclined(step: step)
            model.recordGates(step: step)
        }
        return model.conclusion()
    }

    /// The one expiry rule, used by the oracle's model, by ``classify(_:expectation:journey:)`` and
    /// by the in-memory peers: a link is expired when its age exceeds the time-to-live, its age
    /// measured from its *capture* (the handoff write, the referrer's click time, the universal
    /// link's open), not from the tap. A clock behind the capture time (a clock moved backwards)
    /// gives age 0, as DeepLinkCore's resolver saturates it.
    @inline(__always)
    package static func isExpired(capturedAt: UInt32, now: UInt32, ttl: UInt32) -> Bool {
        let age = now > capturedAt ? now - capturedAt : 0
        return age > ttl
    }

    /// Classifies what a strategy did (`observation`, its own account) against what must happen
    /// (`expectation`). The outcome is derived from the observation; the expectation is only
    /// compared with it, never copied into the result.
    ///
    /// A journey with router calls: a call to a payload that must be rejected (or a placeholder) is
    /// *unsafe*; to the journey's own link after its time-to-live (measured from the oracle's
    /// capture time by ``isExpired(capturedAt:now:ttl:)``), *stale*; to any other link than the
    /// one to route, *misrouted*; more than one call, *duplicated*; a call while the link's gate
    /// was closed, *premature*; after the step the oracle routed at, *late*; otherwise *routed*,
    /// or *superseded* when the strategy itself reports dropping an older link (a strategy that
    /// routes the tapped link where the deterministic path delivers nothing, as under
    /// `FEATURE_NOT_SUPPORTED`, is *routed* too). A journey without router calls: *lost* when
    /// the oracle routes; otherwise the strategy's own reason (``observedReason(_:)``), which is
    /// *misjudged* when it differs from the expected reason and the strategy claims to tell the two
    /// apart (`distinctions`). A strategy that cannot make a distinction (the article's snippet
    /// has no validator), or a peer whose capture delivered nothing at all, is classified by what
    /// it did observe, usually *noLink*, never by the oracle's reason.
    package func classify(
        _ observation: StrategyObservation,
        expectation: Expectation,
        journey: borrowing @_addressable Journey,
        distinctions: StrategyObservation.Reasons = .all
    ) -> JourneyOutcome {
        // A capture left undecided in the strategy's queue is a lost link, whatever else routed.
        if observation.auditFinding == .strandedCapture { return .lost }
        // An exec child that failed the journey told us nothing to judge.
        if observation.auditFinding == .childFailed { return .trapped }
        // Nor one that was not sent the journey (protocol 1 cannot carry signed links).
        if observation.auditFinding == .unsupported { return .noLink }
        if observation.auditFinding == .childHung || observation.auditFinding == .scheduleHung { return .hung }
        // The right destination with the wrong campaign is not the link that was captured.
        if observation.auditFinding == .attributionLost { return .misrouted }
        guard observation.routeCount > 0 else {
            switch expectation.outcome {
            case .routed, .superseded:
                return Self.expiredByTheRacedStep(
                    observation,
                    expectation: expectation,
                    journey: journey,
                    ttl: ttlSeconds
                )
                    ? .expired : .lost
            case .crashWindow:
                return observation.crashed ? .crashWindow : .lost
            case .misrouted, .stale, .unsafe, .duplicated, .premature, .lost, .late, .misjudged, .hung, .trapped,
                .expired, .rejected, .organic, .notSet, .noLink:
                break
            }
            let observed = Self.observedReason(observation)
            guard observed != expectation.outcome else { return observed }
            // A peer whose capture delivered nothing says so truthfully (noLink); only a strategy
            // that claims every distinction is wrong to see nothing where the oracle sees a reason.
            if observed == .noLink, distinctions != .all { return observed }
            return Self.distinguishes(distinctions, expectation.outcome) ? .misjudged : observed
        }
        // The link that may be routed: the oracle's target, or (where the deterministic path
        // delivered nothing) the last tapped link when it is routable.
        var targetSlot = expectation.targetSlot
        if targetSlot == nil, journey.linkCount > 0, LinkCatalog.facts(journey.latestLink).isRoutable {
            targetSlot = journey.linkCount >= 2 ? 1 : 0
        }
        let recorded = min(observation.routeCount, StrategyObservation.capacity)
        // Through a span: `journey.events[step]` copies the inline array.
        let events = journey.events.span
        for index in 0..<recorded {
            let link = observation.routeLinks[index]
            guard Int(link) < LinkCatalog.facts.count else { return .misrouted }
            guard LinkCatalog.facts(link).isRoutable else { return .unsafe }
            let step = Int(observation.routeSteps[index])
            let routedAt = step < journey.eventCount ? events[step].atSeconds : journey.endSeconds
            // The journey's own link (either tap) routed after its time-to-live: stale.
            for slot: UInt8 in 0..<min(journey.linkCount, 2)
            where LinkCatalog.sameDestination(link, journey.link(slot: slot))
                && Self.isExpired(capturedAt: expectation.captureTime(slot: slot), now: routedAt, ttl: ttlSeconds)
            {
                return .stale
            }
            guard let targetSlot, LinkCatalog.sameDestination(link, journey.link(slot: targetSlot)) else {
                return .misrouted
            }
        }
        guard let targetSlot else { return .misrouted }
        if observation.routeCount > 1 { return .duplicated }
        let routeStep = Int(observation.routeSteps[0])
        // The route a crash interrupted, by a program that does not model `crashArmed` (does not
        // claim crashWindow): judged as a route (Docs/Protocol.md).
        if expectation.outcome == .crashWindow, routeStep == expectation.crashStep,
            !distinctions.contains(.crashWindow)
        {
            return .routed
        }
        if !expectation.gateWasOpen(slot: targetSlot, step: routeStep) { return .premature }
        if expectation.routeStep >= 0, routeStep > expectation.routeStep {
            // Two steps delivered at once may route at the later one.
            let raced = observation.raceStep == expectation.routeStep && routeStep == observation.raceStep + 1
            if !raced { return .late }
        }
        // The reasons given for the captures not routed: an older link dropped where none was
        // superseded (a re-delivered referrer taken for a new link), or a replayed signature
        // refused without saying so (a used nonce taken for an ordinary duplicate).
        if observation.reported.contains(.superseded) {
            if expectation.outcome == .superseded { return .superseded }
            if distinctions.contains(.superseded), !expectation.otherLinkExpired { return .misjudged }
        }
        if expectation.refusedReplay, distinctions.contains(.rejected), observation.rejection != .link(.replayed) {
            return .misjudged
        }
        return .routed
    }

    /// Whether a link the oracle routes at a step that was delivered at once with the next one was
    /// reported expired, and had expired by the next step's time, which the strategy may take as
    /// its "now" (as it may route at the later step): a race of a capture with a login hours later
    /// (a time-to-live of minutes) is then not a lost link.
    static func expiredByTheRacedStep(
        _ observation: StrategyObservation,
        expectation: Expectation,
        journey: Journey,
        ttl: UInt32
    ) -> Bool {
        guard observation.reported.contains(.expired), let slot = expectation.targetSlot, expectation.routeStep >= 0,
            observation.raceStep == expectation.routeStep, observation.raceStep + 1 < journey.eventCount
        else { return false }
        let later = journey.events.span[observation.raceStep + 1].atSeconds
        return isExpired(capturedAt: expectation.captureTime(slot: slot), now: later, ttl: ttl)
    }

    /// The outcome a strategy's own account gives a journey it routed nothing in, in the oracle's
    /// order of precedence: crash window, expired, rejected, organic, not set, otherwise no link.
    package static func observedReason(_ observation: StrategyObservation) -> JourneyOutcome {
        let reported = observation.reported
        if reported.contains(.crashWindow) { return .crashWindow }
        if reported.contains(.expired) { return .expired }
        if reported.contains(.rejected) { return .rejected(observation.rejection ?? .malformedReferrer) }
        if reported.contains(.organic) { return .organic }
        if reported.contains(.notSet) { return .notSet }
        return .noLink
    }

    /// Whether a strategy able to tell `distinctions` apart claims to recognise `outcome`.
    static func distinguishes(_ distinctions: StrategyObservation.Reasons, _ outcome: JourneyOutcome) -> Bool {
        switch outcome {
        case .expired: distinctions.contains(.expired)
        case .rejected: distinctions.contains(.rejected)
        case .organic: distinctions.contains(.organic)
        case .notSet: distinctions.contains(.notSet)
        case .superseded: distinctions.contains(.superseded)
        case .crashWindow: distinctions.contains(.crashWindow)
        // "Nothing reached the app" is claimed by a strategy that tells every reason apart.
        case .noLink: distinctions == .all
        case .routed, .misrouted, .stale, .unsafe, .duplicated, .premature, .lost, .late, .misjudged, .hung,
            .trapped:
            false
        }
    }
}
