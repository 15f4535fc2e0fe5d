/// The fingerprint peer (``FingerprintModel``) as a strategy.
///
/// Thread safety: as ``FirstLaunchPeerStrategy``.
struct FingerprintStrategy: FirstLaunchPeerStrategy {
    let peer: LockedPeer<FingerprintModel>
    var races: RaceDelivery
}
