/// A correct gate for the fingerprint and clipboard strategies, so that their reports isolate
/// what their *capture* mechanism gets wrong: it holds the latest captured link, routes it once
/// the app is ready and (for `/orders/`) logged in, and drops it after the time-to-live. The link
/// is persisted, as the SDKs that match by fingerprint persist their match: a kill before routing
/// does not lose it (the relaunch routes it), and a kill between the consumed mark and the router
/// is the crash window. Its own account tells rejections (through the catalog, as a validator
/// would), expiry and the crash window apart (``distinctions``); it never sees Play's placeholders
/// and overwrites an older link silently.
///
/// Thread safety: a value type; part of a peer's state behind ``LockedPeer``'s lock.
struct PeerGate: Sendable {
    let ttl: UInt32
    var pendingLink: UInt8?
    var capturedAt: UInt32 = 0
    var ready = false
    var loggedIn = false
    var crashArmed = false

    init(ttl: UInt32) { self.ttl = ttl }

    /// The reasons this gate reports for links it does not route.
    static let distinctions: StrategyObservation.Reasons = [.rejected, .expired, .crashWindow]

    /// A new process: the app's readiness and login state start over; the persisted link stays.
    mutating func reset() {
        ready = false
        loggedIn = false
        crashArmed = false
    }

    /// Captures catalog link `link`; a rejected payload is noted, not held. Returns false when the
    /// process died in the crash window.
    mutating func capture(
        _ link: UInt8,
        at time: UInt32,
        now: UInt32,
        step: Int,
        observation: inout StrategyObservation
    ) -> Bool {
        switch LinkCatalog.entry(link).verdict {
        case .reject(let reason):
            observation.reject(reason)
            return true
        case .organic, .notSet, .noPayload:
            return true
        case .route:
            pendingLink = link
            capturedAt = time
            return tryRoute(now: now, step: step, observation: &observation)
        }
    }

    /// Routes the pending link if its gate is open. Returns false when the process died in the
    /// crash window.
    mutating func tryRoute(now: UInt32, step: Int, observation: inout StrategyObservation) -> Bool {
        guard let link = pendingLink else { return true }
        if Oracle.isExpired(capturedAt: capturedAt, now: now, ttl: ttl) {
            pendingLink = nil
            observation.reported.insert(.expired)
            return true
        }
        guard ready, !LinkCatalog.entry(link).verdict.needsLogin || loggedIn else { return true }
        pendingLink = nil
        if crashArmed {
            crashArmed = false
            observation.crashed = true
            return false
        }
        observation.route(link: link, step: step)
        return true
    }

    /// Applies an event whose handling is the same for every strategy built on this gate: the
    /// app's readiness and login, a universal link (the app is installed, nothing is deferred), a
    /// kill and the crash window. `running` is whether the process is alive; returns the new value.
    mutating func apply(
        _ event: JourneyEvent,
        of journey: Journey,
        running: Bool,
        step: Int,
        observation: inout StrategyObservation
    ) -> Bool {
        let now = event.atSeconds
        switch event.kind {
        case .appReady:
            guard running else { return false }
            ready = true
            return tryRoute(now: now, step: step, observation: &observation)
        case .loginSucceeded, .sessionRestored:
            guard running else { return false }
            loggedIn = true
            return tryRoute(now: now, step: step, observation: &observation)
        case .logout:
            loggedIn = false
            return running
        case .universalLinkOpen:
            guard running else { return false }
            return capture(
                journey.link(slot: event.argument & 1),
                at: now,
                now: now,
                step: step,
                observation: &observation
            )
        case .kill:
            reset()
            return false
        case .appDeleted:
            // The persisted match goes with the app.
            reset()
            pendingLink = nil
            return false
        case .crashArmed:
            crashArmed = true
            return running
        case .tap, .clipboardCopy, .clipDataPurged, .launch, .clipInvoked, .clipHandoffWrite, .storeVisit, .install,
            .referrerFetch,
            .referrerRetry, .loginFailed, .clockJump:
            return running
        }
    }
}
