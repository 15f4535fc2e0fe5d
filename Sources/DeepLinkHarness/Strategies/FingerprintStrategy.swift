/// Probabilistic matching: the web page records (IP, device attributes, time, link) at the tap;
/// at first launch the app sends its IP and attributes and the server answers with the most recent
/// record that matches within the window, then forgets it. Users behind a shared IP with the same
/// device model are indistinguishable (``JourneyWorld/fingerprintCollision``: another user's more
/// recent tap wins); another IP at launch than at the tap (Wi-Fi to cellular, Safari behind iCloud
/// Private Relay) finds nothing, and so does a launch after the window. The match is held by a
/// correct, persisted ``PeerGate`` (as SDKs persist their match), so what the report shows is the
/// matching itself.
///
/// Thread safety: one instance per worker thread; its state is behind a lock (``LockedPeer``), as
/// an SDK's is, and a racing journey's raced events reach it from two threads.
public struct FingerprintStrategy: Strategy {
    public var kind: StrategyKind { .fingerprint }
    public var distinctions: StrategyObservation.Reasons { PeerGate.distinctions }
    let peer: LockedPeer<FingerprintModel>
    var races: RaceDelivery

    public init(context: StrategyContext) {
        peer = LockedPeer(FingerprintModel(ttl: context.ttlSeconds, window: context.fingerprintWindowSeconds))
        races = RaceDelivery(context: context)
    }

    public mutating func run(
        _ journey: Journey,
        into observation: inout StrategyObservation,
        metrics: inout OperationHistograms
    ) {
        peer.run(journey, into: &observation, races: &races)
    }

    public mutating func finish() { races.finish() }
}

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
