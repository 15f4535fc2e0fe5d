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
