/// The web page copies the link (with its timestamp) to the clipboard at the tap; the app pastes
/// it at first launch. Any copy in between destroys it (``JourneyEvent/Kind/clipboardCopy``); on
/// iOS 14+ the user may decline the "pasted from Safari" prompt
/// (``JourneyWorld/pasteDeclined``); the clipboard may be cleared before launch
/// (``JourneyWorld/clipboardCleared``). What was pasted is held by a correct, persisted
/// ``PeerGate``, so the report shows what the clipboard itself loses.
///
/// Thread safety: a value type used by one thread.
public struct ClipboardStrategy: Strategy {
    public var kind: StrategyKind { .clipboard }
    public var distinctions: StrategyObservation.Reasons { PeerGate.distinctions }
    let ttl: UInt32

    public init(context: StrategyContext) { self.ttl = context.ttlSeconds }

    public mutating func run(
        _ journey: Journey,
        into observation: inout StrategyObservation,
        metrics: inout OperationHistograms
    ) {
        var gate = PeerGate(ttl: ttl)
        var running = false
        var pasted = false
        var clipboard: (link: UInt8, copiedAt: UInt32)?
        let events = journey.events.span  // no copy of the inline array per step
        for step in 0..<journey.eventCount {
            let event = events[step]
            let now = event.atSeconds
            switch event.kind {
            case .tap:
                clipboard = (journey.link(slot: event.argument & 1), now)
            case .clipboardCopy:
                clipboard = nil
            case .launch:
                running = true
                gate.reset()
                guard !pasted, journey.scenario.platform != .installed else { break }
                pasted = true
                guard !journey.world.pasteDeclined, !journey.world.clipboardCleared, let content = clipboard else {
                    break
                }
                running = gate.capture(
                    content.link,
                    at: content.copiedAt,
                    now: now,
                    step: step,
                    observation: &observation
                )
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
}
