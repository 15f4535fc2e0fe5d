/// The app's side of fingerprint matching: the last tap it heard of, whether it asked the server
/// already, and the gate holding the match.
///
/// Thread safety: a value type behind ``LockedPeer``'s lock.
struct FingerprintModel: PeerModel {
    let ttl: UInt32
    let window: UInt32
    var gate: PeerGate
    var running = false
    var matched = false
    var lastTap: UInt32?

    init(ttl: UInt32, window: UInt32) {
        self.ttl = ttl
        self.window = window
        gate = PeerGate(ttl: ttl)
    }

    mutating func install() { self = FingerprintModel(ttl: ttl, window: window) }

    mutating func startProcess() {
        running = true
        gate.reset()
    }

    mutating func handle(
        _ event: JourneyEvent,
        of journey: Journey,
        step: Int,
        into observation: inout StrategyObservation
    ) {
        let now = event.atSeconds
        switch event.kind {
        case .tap:
            lastTap = now
        case .launch:
            guard !matched, journey.scenario.platform != .installed else { break }
            matched = true
            guard let (link, tappedAt) = match(journey, lastTap: lastTap, now: now) else { break }
            running = gate.capture(link, at: tappedAt, now: now, step: step, observation: &observation)
        case .appReady, .loginSucceeded, .sessionRestored, .logout, .universalLinkOpen, .kill, .crashArmed,
            .appDeleted:
            running = gate.apply(event, of: journey, running: running, step: step, observation: &observation)
        case .clipInvoked, .clipHandoffWrite, .storeVisit, .install, .referrerFetch, .referrerRetry, .loginFailed,
            .clockJump, .clipboardCopy, .clipDataPurged:
            break
        }
    }

    /// The server's answer at first launch: the most recent matching record inside the window.
    func match(_ journey: Journey, lastTap: UInt32?, now: UInt32) -> (UInt8, UInt32)? {
        let world = journey.world
        // Another IP at launch than at the tap: nothing matches.
        guard !world.ipChanged, !world.privateRelay else { return nil }
        if world.fingerprintCollision {
            // The other user tapped after this one (or, for an untapped install, shortly before launch).
            let otherTap = lastTap.map { $0 &+ 30 } ?? (now > 60 ? now - 60 : 0)
            if now &- otherTap <= window { return (world.collidingLink, otherTap) }
        }
        guard journey.linkCount > 0, let tappedAt = lastTap, now &- tappedAt <= window else { return nil }
        return (journey.latestLink, tappedAt)
    }
}
