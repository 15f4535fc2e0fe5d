/// Probabilistic matching: the web page records (IP, device attributes, time, link) at the tap;
/// at first launch the app sends its IP and attributes and the server answers with the most recent
/// record that matches within the window, then forgets it. Users behind a shared IP with the same
/// device model are indistinguishable (``JourneyWorld/fingerprintCollision``: another user's more
/// recent tap wins); another IP at launch than at the tap (Wi-Fi to cellular, Safari behind iCloud
/// Private Relay) finds nothing, and so does a launch after the window. The match is held by a
/// correct, persisted ``PeerGate`` (as SDKs persist their match), so what the report shows is the
/// matching itself.
///
/// The model: the app's side of fingerprint matching (the last tap it heard of, whether it asked
/// the server already, and the gate holding the match).
///
/// Thread safety: a value type behind ``LockedPeer``'s lock.
struct FingerprintModel: FirstLaunchPeerModel {
    let ttl: UInt32
    let window: UInt32
    var gate: PeerGate
    var running = false
    /// Whether the app asked the server already.
    var asked = false
    var lastTap: UInt32?

    static let kind = StrategyKind.fingerprint

    init(ttl: UInt32, window: UInt32) {
        self.ttl = ttl
        self.window = window
        gate = PeerGate(ttl: ttl)
    }

    init(context: StrategyContext) { self.init(ttl: context.ttlSeconds, window: context.fingerprintWindowSeconds) }

    mutating func install() { self = FingerprintModel(ttl: ttl, window: window) }

    mutating func hear(_ event: JourneyEvent, of journey: Journey) {
        if event.kind == .tap { lastTap = event.atSeconds }
    }

    /// The server's answer at first launch: the most recent matching record inside the window.
    func find(in journey: Journey, now: UInt32) -> (link: UInt8, at: UInt32)? {
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
