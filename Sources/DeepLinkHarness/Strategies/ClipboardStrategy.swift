/// The clipboard peer (``ClipboardModel``) as a strategy.
///
/// Thread safety: as ``FirstLaunchPeerStrategy``.
struct ClipboardStrategy: FirstLaunchPeerStrategy {
    let peer: LockedPeer<ClipboardModel>
    var races: RaceDelivery
}
