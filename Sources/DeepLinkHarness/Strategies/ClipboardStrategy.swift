/// The web page copies the link (with its timestamp) to the clipboard at the tap; the app pastes
/// it at first launch. Any copy in between destroys it (``JourneyEvent/Kind/clipboardCopy``); on
/// iOS 14+ the user may decline the "pasted from Safari" prompt
/// (``JourneyWorld/pasteDeclined``); the clipboard may be cleared before launch
/// (``JourneyWorld/clipboardCleared``). What was pasted is held by a correct, persisted
/// ``PeerGate``, so the report shows what the clipboard itself loses.
///
/// Thread safety: one instance per worker thread; its state is behind a lock (``LockedPeer``), as
/// an SDK's is, and a racing journey's raced events reach it from two threads.
public struct ClipboardStrategy: Strategy {
    public var kind: StrategyKind { .clipboard }
    public var distinctions: StrategyObservation.Reasons { PeerGate.distinctions }
    let peer: LockedPeer<ClipboardModel>
    var races: RaceDelivery

    public init(context: StrategyContext) {
        peer = LockedPeer(ClipboardModel(ttl: context.ttlSeconds))
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

/// The device's clipboard and the app's side of pasting: whether it pasted already, and the gate
/// holding what it pasted.
///
/// Thread safety: a value type behind ``LockedPeer``'s lock.
struct ClipboardModel: PeerModel {
    let ttl: UInt32
    var gate: PeerGate
    var running = false
    var pasted = false
    var clipboard: (link: UInt8, copiedAt: UInt32)?

    init(ttl: UInt32) {
        self.ttl = ttl
        gate = PeerGate(ttl: ttl)
    }

    mutating func install() { self = ClipboardModel(ttl: ttl) }

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
            clipboard = (journey.link(slot: event.argument & 1), now)
        case .clipboardCopy:
            clipboard = nil
        case .launch:
            guard !pasted, journey.scenario.platform != .installed else { break }
            pasted = true
            guard !journey.world.pasteDeclined, !journey.world.clipboardCleared, let content = clipboard else {
                break
            }
            running = gate.capture(content.link, at: content.copiedAt, now: now, step: step, observation: &observation)
        case .appDeleted:
            // A reinstalled app's first launch pastes again.
            pasted = false
            running = gate.apply(event, of: journey, running: running, step: step, observation: &observation)
        case .appReady, .loginSucceeded, .sessionRestored, .logout, .universalLinkOpen, .kill, .crashArmed:
            running = gate.apply(event, of: journey, running: running, step: step, observation: &observation)
        case .clipInvoked, .clipHandoffWrite, .storeVisit, .install, .referrerFetch, .referrerRetry, .loginFailed,
            .clockJump, .clipDataPurged:
            break
        }
    }
}
