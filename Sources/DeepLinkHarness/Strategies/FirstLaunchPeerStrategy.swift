/// A peer whose one capture is what its first launch finds (``FirstLaunchPeerModel``: the
/// clipboard's paste, the fingerprint server's match; each model says what it is). What it captured
/// is held by a correct, persisted ``PeerGate``, so the report shows what the capture itself loses.
///
/// A protocol with one small concrete type per model (``FingerprintStrategy``,
/// ``ClipboardStrategy``), not a generic struct: the worker reaches a strategy through its
/// `Strategy` witness, and a generic type's witness runs unspecialised, looking up the generic
/// lock state's metadata on every event (about 5% of a default run, all of it charged to these
/// two peers).
///
/// Thread safety: one instance per worker thread; its state is behind a lock (``LockedPeer``), as
/// an SDK's is, and a racing journey's raced events reach it from two threads.
protocol FirstLaunchPeerStrategy: LockedPeerStrategy where Model: FirstLaunchPeerModel {
    init(peer: LockedPeer<Model>, races: RaceDelivery)
}

extension FirstLaunchPeerStrategy {
    package var kind: StrategyKind { Model.kind }
    package var distinctions: StrategyObservation.Reasons { PeerGate.distinctions }

    package init(context: StrategyContext) {
        self.init(peer: LockedPeer(Model(context: context)), races: RaceDelivery(context: context))
    }
}
