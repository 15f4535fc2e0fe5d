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
package struct FingerprintStrategy: LockedPeerStrategy {
    package var kind: StrategyKind { .fingerprint }
    package var distinctions: StrategyObservation.Reasons { PeerGate.distinctions }
    let peer: LockedPeer<FingerprintModel>
    var races: RaceDelivery

    package init(context: StrategyContext) {
        peer = LockedPeer(FingerprintModel(ttl: context.ttlSeconds, window: context.fingerprintWindowSeconds))
        races = RaceDelivery(context: context)
    }
}
