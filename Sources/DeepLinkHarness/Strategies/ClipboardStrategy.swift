/// The web page copies the link (with its timestamp) to the clipboard at the tap; the app pastes
/// it at first launch. Any copy in between destroys it (``JourneyEvent/Kind/clipboardCopy``); on
/// iOS 14+ the user may decline the "pasted from Safari" prompt
/// (``JourneyWorld/pasteDeclined``); the clipboard may be cleared before launch
/// (``JourneyWorld/clipboardCleared``). What was pasted is held by a correct, persisted
/// ``PeerGate``, so the report shows what the clipboard itself loses.
///
/// Thread safety: one instance per worker thread; its state is behind a lock (``LockedPeer``), as
/// an SDK's is, and a racing journey's raced events reach it from two threads.
package struct ClipboardStrategy: LockedPeerStrategy {
    package var kind: StrategyKind { .clipboard }
    package var distinctions: StrategyObservation.Reasons { PeerGate.distinctions }
    let peer: LockedPeer<ClipboardModel>
    var races: RaceDelivery

    package init(context: StrategyContext) {
        peer = LockedPeer(ClipboardModel(ttl: context.ttlSeconds))
        races = RaceDelivery(context: context)
    }
}
