/// The web page copies the link (with its timestamp) to the clipboard at the tap; the app pastes
/// it at first launch. Any copy in between destroys it (``JourneyEvent/Kind/clipboardCopy``); on
/// iOS 14+ the user may decline the "pasted from Safari" prompt
/// (``JourneyWorld/pasteDeclined``); the clipboard may be cleared before launch
/// (``JourneyWorld/clipboardCleared``). What was pasted is held by a correct, persisted
/// ``PeerGate``, so the report shows what the clipboard itself loses.
///
/// The model: the device's clipboard and the app's side of pasting (whether it pasted already, and
/// the gate holding what it pasted).
///
/// Thread safety: a value type behind ``LockedPeer``'s lock.
struct ClipboardModel: FirstLaunchPeerModel {
    let ttl: UInt32
    var gate: PeerGate
    var running = false
    /// Whether the app pasted already.
    var asked = false
    var clipboard: (link: UInt8, copiedAt: UInt32)?

    static let kind = StrategyKind.clipboard

    init(ttl: UInt32) {
        self.ttl = ttl
        gate = PeerGate(ttl: ttl)
    }

    init(context: StrategyContext) { self.init(ttl: context.ttlSeconds) }

    mutating func install() { self = ClipboardModel(ttl: ttl) }

    mutating func hear(_ event: JourneyEvent, of journey: Journey) {
        switch event.kind {
        case .tap: clipboard = (journey.link(slot: event.argument & 1), event.atSeconds)
        case .clipboardCopy: clipboard = nil
        // A reinstalled app's first launch pastes again.
        case .appDeleted: asked = false
        default: break
        }
    }

    /// What the first launch pastes: nothing when the user declined the prompt or the clipboard
    /// was cleared or overwritten.
    func find(in journey: Journey, now: UInt32) -> (link: UInt8, at: UInt32)? {
        guard !journey.world.pasteDeclined, !journey.world.clipboardCleared, let clipboard else { return nil }
        return (clipboard.link, clipboard.copiedAt)
    }
}
