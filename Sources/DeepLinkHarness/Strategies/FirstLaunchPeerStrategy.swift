/// A peer whose one capture is what its first launch finds (``FirstLaunchPeerModel``: the
/// clipboard's paste, the fingerprint server's match; each model says what it is). What it captured
/// is held by a correct, persisted ``PeerGate``, so the report shows what the capture itself loses.
///
/// Thread safety: one instance per worker thread; its state is behind a lock (``LockedPeer``), as
/// an SDK's is, and a racing journey's raced events reach it from two threads.
struct FirstLaunchPeerStrategy<Model: FirstLaunchPeerModel>: LockedPeerStrategy {
    var kind: StrategyKind { Model.kind }
    var distinctions: StrategyObservation.Reasons { PeerGate.distinctions }
    let peer: LockedPeer<Model>
    var races: RaceDelivery

    init(context: StrategyContext) {
        peer = LockedPeer(Model(context: context))
        races = RaceDelivery(context: context)
    }
}
