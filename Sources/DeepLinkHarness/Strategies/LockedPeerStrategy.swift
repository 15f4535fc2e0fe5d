/// A peer strategy: its model behind a lock (``LockedPeer``), meeting a racing journey's raced
/// events from two threads through ``RaceDelivery``, as every built-in strategy does. Running a
/// journey and finishing are the same for every peer; only the model differs.
protocol LockedPeerStrategy: Strategy {
    associatedtype Model: PeerModel
    var peer: LockedPeer<Model> { get }
    var races: RaceDelivery { get set }
}

extension LockedPeerStrategy {
    package mutating func run(
        _ journey: Journey,
        into observation: inout StrategyObservation,
        metrics: inout OperationHistograms
    ) {
        peer.run(journey, into: &observation, races: &races)
    }

    package mutating func finish() { races.finish() }
}
