/// The expected outcome of a journey, computed by a deliberately plain, sequential model of SPEC
/// 3.4, written without DeepLinkCore's resolver: a handoff store (pending and consumed marks that
/// survive a kill), the process's in-memory pending links and signals, and the gate rules —
/// exactly once, never early (appReady and, for `/orders/`, loggedIn; logout closes the gate),
/// latest wins, expiry after the time-to-live, duplicate suppression per install, durability
/// across kills and at-most-once across a crash in the route call.
///
/// Payload verdicts come from the hand-written ``LinkCatalog``, not from the core's validator.
///
/// Thread safety: a value type; `Sendable`. ``expect(_:)`` is a pure function of the journey.
public struct Oracle: Sendable {
    /// The time-to-live, seconds.
    public var ttlSeconds: UInt32

    public init(ttlSeconds: UInt32 = 86_400) { self.ttlSeconds = ttlSeconds }

    public init(mix: ScenarioMix) { self.ttlSeconds = UInt32(min(mix.ttlSeconds, 31_536_000)) }

    /// What must happen to `journey`.
    public func expect(_ journey: Journey) -> Expectation {
        var model = Model(journey: journey, ttl: ttlSeconds)
        // Through a span: `journey.events[step]` in a loop copies the inline array per iteration.
        let events = journey.events.span
        for step in 0..<journey.eventCount {
            model.apply(events[step], step: step)
            model.recordGates(step: step)
        }
        return model.conclusion()
    }

    /// Classifies what a strategy did (`observation`) against what must happen (`expectation`).
    ///
    /// The only link that may ever be routed is the one the user tapped last (the oracle's target
    /// when it routes one), and only while it is fresh. Order of judgement: a router call to any
    /// other link, or to a link older than the time-to-live, is *misrouted*; more than one call is
    /// *duplicated*; a call at a step where the oracle's gate for that link was closed is
    /// *premature*; no call when the oracle routes is *lost*; otherwise the expected outcome. A
    /// strategy whose capture mechanism delivers the tapped link where the deterministic path could
    /// not (for example under `FEATURE_NOT_SUPPORTED`) and routes it once, in time, is *routed*.
    public func classify(
        _ observation: StrategyObservation,
        expectation: Expectation,
        journey: Journey
    ) -> JourneyOutcome {
        guard observation.routeCount > 0 else {
            switch expectation.outcome {
            case .routed, .superseded: return .lost
            case .misrouted, .duplicated, .premature, .lost, .expired, .rejected, .organic, .notSet, .noLink,
                .crashWindow:
                return expectation.outcome
            }
        }
        var targetSlot = expectation.targetSlot
        if targetSlot == nil, journey.linkCount > 0, LinkCatalog.entry(journey.latestLink).verdict.isRoutable {
            targetSlot = journey.linkCount >= 2 ? 1 : 0
        }
        guard let targetSlot else { return .misrouted }
        let target = journey.link(slot: targetSlot)
        let tappedAt = journey.tapTime(slot: targetSlot)
        let recorded = min(observation.routeCount, StrategyObservation.capacity)
        for index in 0..<recorded {
            guard LinkCatalog.sameDestination(observation.routeLinks[index], target) else { return .misrouted }
            let step = Int(observation.routeSteps[index])
            let routedAt = step < journey.eventCount ? journey.events[step].atSeconds : journey.endSeconds
            if routedAt &- tappedAt > ttlSeconds { return .misrouted }
        }
        if observation.routeCount > 1 { return .duplicated }
        if !expectation.gateWasOpen(slot: targetSlot, step: Int(observation.routeSteps[0])) { return .premature }
        switch expectation.outcome {
        case .superseded: return .superseded
        case .routed, .misrouted, .duplicated, .premature, .lost, .expired, .rejected, .organic, .notSet, .noLink,
            .crashWindow:
            return .routed
        }
    }
}

/// The oracle's verdict on one journey.
///
/// Thread safety: a value type; `Sendable`.
public struct Expectation: Sendable {
    /// The expected outcome (never a violation).
    public var outcome: JourneyOutcome
    /// The tap slot whose link must be routed (routed, superseded), or was consumed in the crash
    /// window (crashWindow, where one later route is tolerated). `nil` otherwise.
    public var targetSlot: UInt8?
    /// The step at which the oracle routed, or -1.
    public var routeStep: Int
    /// Per tap slot: bit `s` is set when that link's gate was open after step `s`.
    public var gateMasks: (UInt64, UInt64)
    /// A link was still pending, unexpired, when the script ended (a generator defect).
    public var endedPending: Bool

    /// Whether the gate of the link in `slot` was open after `step`.
    public func gateWasOpen(slot: UInt8, step: Int) -> Bool {
        guard step >= 0, step < 64 else { return false }
        let mask = slot == 0 ? gateMasks.0 : gateMasks.1
        return mask & (1 << UInt64(step)) != 0
    }
}

/// The oracle's state while it walks a script.
private struct Model {
    let journey: Journey
    let ttl: UInt32
    var now: UInt32 = 0
    // Durable (the handoff store).
    var storePending: (Bool, Bool) = (false, false)
    var consumed: (Bool, Bool) = (false, false)
    var capturedAt: (UInt32, UInt32) = (0, 0)
    var tapTime: (UInt32, UInt32) = (0, 0)
    // The process.
    var running = false
    var ready = false
    var loggedIn = false
    var resolverPending: (Bool, Bool) = (false, false)
    var crashArmed = false
    // Findings.
    var routedSlot: UInt8?
    var routeStep = -1
    var crashedSlot: UInt8?
    var sawSuperseded = false
    var sawExpired = false
    var rejection: RejectionReason?
    var sawOrganic = false
    var sawNotSet = false
    var gateMasks: (UInt64, UInt64) = (0, 0)

    init(journey: Journey, ttl: UInt32) {
        self.journey = journey
        self.ttl = ttl
    }

    func verdict(slot: UInt8) -> LinkCatalog.Verdict { LinkCatalog.entry(journey.link(slot: slot)).verdict }

    func get(_ pair: (Bool, Bool), _ slot: UInt8) -> Bool { slot == 0 ? pair.0 : pair.1 }

    func set(_ pair: inout (Bool, Bool), _ slot: UInt8, _ value: Bool) {
        if slot == 0 { pair.0 = value } else { pair.1 = value }
    }

    func time(_ pair: (UInt32, UInt32), _ slot: UInt8) -> UInt32 { slot == 0 ? pair.0 : pair.1 }

    mutating func apply(_ event: JourneyEvent, step: Int) {
        now = event.atSeconds
        let slot = event.argument & 1
        switch event.kind {
        case .tap:
            if slot == 0 { tapTime.0 = now } else { tapTime.1 = now }
        case .clipInvoked, .storeVisit, .install, .loginFailed, .clockJump, .clipboardCopy:
            break
        case .clipHandoffWrite:
            set(&storePending, slot, true)
            if slot == 0 { capturedAt.0 = now } else { capturedAt.1 = now }
        case .launch:
            running = true
            ready = false
            loggedIn = false
            resolverPending = (false, false)
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
            tryRoute(step: step)
        case .loginSucceeded, .sessionRestored:
            guard running else { break }
            loggedIn = true
            tryRoute(step: step)
        case .logout:
            guard running else { break }
            loggedIn = false
        case .kill:
            running = false
            ready = false
            loggedIn = false
            resolverPending = (false, false)
        case .crashArmed:
            crashArmed = true
        case .universalLinkOpen:
            guard running else { break }
            // The warm path captures in memory; the capture time is the open.
            if slot == 0 { capturedAt.0 = now } else { capturedAt.1 = now }
            capture(slot: slot, step: step)
        }
    }

    /// Play hands over the referrer of the latest store visit.
    mutating func receiveReferrer(step: Int) {
        let slot: UInt8 = journey.linkCount >= 2 ? 1 : 0
        switch LinkCatalog.entry(journey.latestLink).verdict {
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
            if slot == 0 { capturedAt.0 = tapTime.0 } else { capturedAt.1 = tapTime.1 }
            capture(slot: slot, step: step)
        }
    }

    mutating func capture(slot: UInt8, step: Int) {
        switch verdict(slot: slot) {
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

    mutating func drop(_ slot: UInt8) {
        set(&resolverPending, slot, false)
        set(&storePending, slot, false)
    }

    mutating func tryRoute(step: Int) {
        guard running else { return }
        for slot: UInt8 in 0...1 where get(resolverPending, slot) {
            if now &- time(capturedAt, slot) > ttl {
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
        guard !verdict(slot: slot).needsLogin || loggedIn else { return }
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
            running = false
            ready = false
            loggedIn = false
            resolverPending = (false, false)
            return
        }
        routedSlot = slot
        routeStep = step
    }

    mutating func recordGates(step: Int) {
        guard running, ready, step < 64 else { return }
        let bit: UInt64 = 1 << UInt64(step)
        if !verdict(slot: 0).needsLogin || loggedIn { gateMasks.0 |= bit }
        if journey.linkCount >= 2, !verdict(slot: 1).needsLogin || loggedIn { gateMasks.1 |= bit }
    }

    func conclusion() -> Expectation {
        var expectation = Expectation(
            outcome: .noLink,
            targetSlot: nil,
            routeStep: routeStep,
            gateMasks: gateMasks,
            endedPending: false
        )
        if let slot = routedSlot {
            expectation.outcome = sawSuperseded ? .superseded : .routed
            expectation.targetSlot = slot
        } else if let slot = crashedSlot {
            expectation.outcome = .crashWindow
            expectation.targetSlot = slot
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
            if journey.scenario.perturbation != .clipOnly {
                for slot: UInt8 in 0...1
                where (get(resolverPending, slot) || get(storePending, slot)) && now &- time(capturedAt, slot) <= ttl {
                    expectation.endedPending = true
                }
            }
        }
        return expectation
    }
}
