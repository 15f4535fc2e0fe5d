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
        journey: Journey,
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
        if expectation.refusedReplay, distinctions.contains(.rejected), observation.rejection != .replayed {
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

/// The oracle's verdict on one journey.
///
/// Thread safety: a value type; `Sendable`.
package struct Expectation: Sendable {
    /// The expected outcome (never a violation).
    package var outcome: JourneyOutcome
    /// The tap slot whose link must be routed (routed, superseded), or was consumed in the crash
    /// window (crashWindow, where one later route is tolerated). `nil` otherwise.
    package var targetSlot: UInt8?
    /// The step at which the oracle routed, or -1.
    package var routeStep: Int
    /// Per tap slot: bit `s` is set when that link's gate was open after step `s`.
    package var gateMasks: (UInt64, UInt64)
    /// Per tap slot: when the oracle last captured that link (its age counts from here), or the
    /// tap's time when it never captured it.
    package var captureTimes: (UInt32, UInt32)
    /// A link was still pending, unexpired, when the script ended (a generator defect).
    package var endedPending: Bool
    /// A signed link opened again after it routed was refused as `rejected:replayed`.
    package var refusedReplay = false
    /// Another link of the journey expired in the oracle before the route. A strategy that reports
    /// it superseded instead decided it before its time-to-live ran out; which of the two a link
    /// near its expiry gets is not judged (the oracle decides at the route, a strategy may earlier).
    package var otherLinkExpired = false
    /// The step at which the oracle's process died in the crash window (crashWindow), or -1.
    package var crashStep = -1

    /// Whether the gate of the link in `slot` was open after `step`.
    package func gateWasOpen(slot: UInt8, step: Int) -> Bool {
        guard step >= 0, step < 64 else { return false }
        let mask = slot == 0 ? gateMasks.0 : gateMasks.1
        return mask & (1 << UInt64(step)) != 0
    }

    /// When the link in `slot` was captured (or tapped, if never captured).
    package func captureTime(slot: UInt8) -> UInt32 { slot == 0 ? captureTimes.0 : captureTimes.1 }
}

/// The oracle's state while it walks a script. It keeps what it reads of the journey besides the
/// events (the catalog's facts of both tap slots, the tap count), not the journey itself: a copy
/// of the journey per expectation costs more than walking a short script.
private struct Model {
    let ttl: UInt32
    /// ``LinkCatalog/facts(_:)`` of tap slots 0 and 1.
    let facts: (LinkCatalog.Facts, LinkCatalog.Facts)
    let linkCount: UInt8
    let clipOnly: Bool
    var now: UInt32 = 0
    // Durable (the handoff store).
    var storePending: (Bool, Bool) = (false, false)
    var consumed: (Bool, Bool) = (false, false)
    var capturedAt: (UInt32, UInt32) = (0, 0)
    var tapTime: (UInt32, UInt32) = (0, 0)
    /// Whether `capturedAt` holds a capture (not just the tap's time).
    var captured: (Bool, Bool) = (false, false)
    // The process.
    var running = false
    var ready = false
    var loggedIn = false
    /// The account of the session (``LinkCatalog/accounts``), while `loggedIn`.
    var account: UInt8 = 0
    var resolverPending: (Bool, Bool) = (false, false)
    var crashArmed = false
    /// The router declines the next offer (once per journey, ``Journey/routerNotReady``).
    var routerDeclines: Bool
    /// The link the router declined: it waits, pending, for the next signal.
    var deferredSlot: UInt8?
    // Findings.
    var routedSlot: UInt8?
    var routeStep = -1
    var crashedSlot: UInt8?
    var crashStep = -1
    var sawSuperseded = false
    var sawExpired = false
    var rejection: RejectionReason?
    var sawOrganic = false
    var sawNotSet = false
    var refusedReplay = false
    var gateMasks: (UInt64, UInt64) = (0, 0)

    @inline(__always)
    init(journey: Journey, ttl: UInt32) {
        self.ttl = ttl
        self.facts = (LinkCatalog.facts(journey.links.0), LinkCatalog.facts(journey.links.1))
        self.linkCount = journey.linkCount
        self.clipOnly = journey.scenario.perturbation == .clipOnly
        self.routerDeclines = journey.routerNotReady
    }

    /// The facts of the link tapped in `slot` (0 or 1).
    func facts(slot: UInt8) -> LinkCatalog.Facts { slot == 0 ? facts.0 : facts.1 }

    func get(_ pair: (Bool, Bool), _ slot: UInt8) -> Bool { slot == 0 ? pair.0 : pair.1 }

    func set(_ pair: inout (Bool, Bool), _ slot: UInt8, _ value: Bool) {
        if slot == 0 { pair.0 = value } else { pair.1 = value }
    }

    func time(_ pair: (UInt32, UInt32), _ slot: UInt8) -> UInt32 { slot == 0 ? pair.0 : pair.1 }

    /// Inlined into ``Oracle/expect(_:)``'s loop, the model's one caller per event.
    @inline(__always)
    mutating func apply(_ event: JourneyEvent, step: Int) {
        now = event.atSeconds
        let slot = event.argument & 1
        switch event.kind {
        case .tap:
            if slot == 0 { tapTime.0 = now } else { tapTime.1 = now }
            if !get(captured, slot) {
                if slot == 0 { capturedAt.0 = now } else { capturedAt.1 = now }
            }
        case .clipInvoked, .storeVisit, .install, .loginFailed, .clockJump, .clipboardCopy:
            break
        case .appDeleted:
            // The process dies; the container and its consumed marks go with the app (the next
            // install is a new install).
            running = false
            ready = false
            loggedIn = false
            resolverPending = (false, false)
            deferredSlot = nil
            storePending = (false, false)
            consumed = (false, false)
        case .clipDataPurged:
            storePending = (false, false)
            consumed = (false, false)
        case .clipHandoffWrite:
            // The clip validates before it writes: a payload it rejects is never stored.
            if case .reject(let reason) = facts(slot: slot).action {
                rejection = reason
                break
            }
            set(&storePending, slot, true)
            markCaptured(slot, at: now)
        case .launch:
            running = true
            // An armed crash belongs to the process it was armed in.
            crashArmed = false
            ready = false
            loggedIn = false
            resolverPending = (false, false)
            deferredSlot = nil
            // The app reads the container: every durable pending link is captured again.
            for pendingSlot: UInt8 in 0...1 where get(storePending, pendingSlot) && !get(consumed, pendingSlot) {
                capture(slot: pendingSlot, step: step)
            }
        case .referrerFetch, .referrerRetry:
            guard running, event.referrerResult.delivered else { break }
            receiveReferrer(step: step)
        case .appReady:
            guard running else { break }
            ready = true
            deferredSlot = nil
            tryRoute(step: step)
        case .loginSucceeded, .sessionRestored:
            guard running else { break }
            loggedIn = true
            account = event.argument
            deferredSlot = nil
            tryRoute(step: step)
        case .logout:
            guard running else { break }
            loggedIn = false
            // A signal offers a declined link again (one that needs no login routes now).
            if deferredSlot != nil {
                deferredSlot = nil
                tryRoute(step: step)
            }
        case .kill:
            running = false
            ready = false
            loggedIn = false
            resolverPending = (false, false)
            deferredSlot = nil
        case .crashArmed:
            crashArmed = true
        case .universalLinkOpen:
            guard running else { break }
            // A signed link's nonce is single-use per install: opened again after the container
            // recorded it consumed, it is a replay (never routed again).
            if facts(slot: slot).singleUse, get(consumed, slot) {
                rejection = .replayed
                refusedReplay = true
                break
            }
            // The warm path captures in memory; the capture time is the open.
            markCaptured(slot, at: now)
            capture(slot: slot, step: step)
        }
    }

    /// The app's screen appears within the step its router declined in: the app signals again (an
    /// event it already had) and the link is offered again.
    mutating func retryDeclined(step: Int) {
        guard running, deferredSlot != nil else { return }
        deferredSlot = nil
        tryRoute(step: step)
    }

    /// Play hands over the referrer of the latest store visit.
    mutating func receiveReferrer(step: Int) {
        // The latest tap's link (``Journey/latestLink``).
        let slot: UInt8 = linkCount >= 2 ? 1 : 0
        switch facts(slot: slot).action {
        case .organic: sawOrganic = true
        case .notSet: sawNotSet = true
        case .noPayload: break
        case .reject(let reason): rejection = reason
        case .route:
            // Same install-begin timestamp as before: a re-delivery, routed at most once per install.
            guard !get(consumed, slot) else { return }
            if get(storePending, slot) {
                if !get(resolverPending, slot) { capture(slot: slot, step: step) }
                return
            }
            set(&storePending, slot, true)
            // Play reports the click time: a referrer link's age counts from the tap.
            markCaptured(slot, at: slot == 0 ? tapTime.0 : tapTime.1)
            capture(slot: slot, step: step)
        }
    }

    mutating func capture(slot: UInt8, step: Int) {
        switch facts(slot: slot).action {
        case .reject(let reason):
            rejection = reason
            set(&storePending, slot, false)
            return
        case .organic, .notSet, .noPayload:
            set(&storePending, slot, false)
            return
        case .route:
            break
        }
        set(&resolverPending, slot, true)
        tryRoute(step: step)
    }

    mutating func markCaptured(_ slot: UInt8, at time: UInt32) {
        set(&captured, slot, true)
        if slot == 0 { capturedAt.0 = time } else { capturedAt.1 = time }
    }

    mutating func drop(_ slot: UInt8) {
        set(&resolverPending, slot, false)
        set(&storePending, slot, false)
    }

    mutating func tryRoute(step: Int) {
        guard running else { return }
        for slot: UInt8 in 0...1 where get(resolverPending, slot) {
            if Oracle.isExpired(capturedAt: time(capturedAt, slot), now: now, ttl: ttl) {
                sawExpired = true
                drop(slot)
            }
        }
        guard ready else { return }
        var newest: UInt8?
        for slot: UInt8 in 0...1 where get(resolverPending, slot) {
            if let current = newest, time(capturedAt, current) > time(capturedAt, slot) { continue }
            newest = slot
        }
        guard let slot = newest else { return }
        // Declined by the router: it (and every older link) waits for the next signal.
        if deferredSlot == slot { return }
        guard gateOpen(slot: slot) else { return }
        for other: UInt8 in 0...1 where other != slot && get(resolverPending, other) {
            sawSuperseded = true
            drop(other)
            set(&consumed, other, true)
        }
        set(&consumed, slot, true)
        drop(slot)
        if crashArmed {
            crashArmed = false
            crashedSlot = slot
            crashStep = step
            running = false
            ready = false
            loggedIn = false
            resolverPending = (false, false)
            return
        }
        if routerDeclines {
            // Not ready: the consumed mark is withdrawn and the link is pending again, in the
            // container and in the process, until the next signal.
            routerDeclines = false
            set(&consumed, slot, false)
            set(&storePending, slot, true)
            set(&resolverPending, slot, true)
            deferredSlot = slot
            return
        }
        routedSlot = slot
        routeStep = step
    }

    mutating func recordGates(step: Int) {
        guard running, ready, step < 64 else { return }
        let bit: UInt64 = 1 << UInt64(step)
        if gateOpen(slot: 0) { gateMasks.0 |= bit }
        if linkCount >= 2, gateOpen(slot: 1) { gateMasks.1 |= bit }
    }

    /// Whether the login part of the gate of the link in `slot` is open (`appReady` is checked
    /// apart): no login needed, or logged in, and for a link bound to an account, as that account.
    func gateOpen(slot: UInt8) -> Bool {
        let entry = facts(slot: slot)
        if let bound = entry.account { return loggedIn && account == bound }
        return !entry.needsLogin || loggedIn
    }

    func conclusion() -> Expectation {
        var expectation = Expectation(
            outcome: .noLink,
            targetSlot: nil,
            routeStep: routeStep,
            gateMasks: gateMasks,
            captureTimes: capturedAt,
            endedPending: false,
            refusedReplay: refusedReplay
        )
        if let slot = routedSlot {
            expectation.outcome = sawSuperseded ? .superseded : .routed
            expectation.otherLinkExpired = sawExpired
            expectation.targetSlot = slot
        } else if let slot = crashedSlot {
            expectation.outcome = .crashWindow
            expectation.targetSlot = slot
            expectation.crashStep = crashStep
        } else if sawExpired {
            expectation.outcome = .expired
        } else if let rejection {
            expectation.outcome = .rejected(rejection)
        } else if sawOrganic {
            expectation.outcome = .organic
        } else if sawNotSet {
            expectation.outcome = .notSet
        } else {
            // Still pending and unexpired: the script ended before the gate could decide.
            if !clipOnly {
                for slot: UInt8 in 0...1
                where (get(resolverPending, slot) || get(storePending, slot))
                    && !Oracle.isExpired(capturedAt: time(capturedAt, slot), now: now, ttl: ttl)
                {
                    expectation.endedPending = true
                }
            }
        }
        return expectation
    }
}
