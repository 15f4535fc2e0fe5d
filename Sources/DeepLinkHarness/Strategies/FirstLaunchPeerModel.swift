/// A peer whose one capture is what the app learns at its first launch (the clipboard's paste, the
/// fingerprint server's match), held by a correct ``PeerGate``. The launch, the gate's events and
/// the process are the same for every such peer; what the app hears of before it launches and what
/// its first launch finds are each model's.
///
/// Thread safety: a value type behind ``LockedPeer``'s lock.
protocol FirstLaunchPeerModel: PeerModel {
    /// The strategy this model is.
    static var kind: StrategyKind { get }
    /// A new install's state for a run's `context`.
    init(context: StrategyContext)
    var gate: PeerGate { get set }
    var running: Bool { get set }
    /// Whether this install's first launch asked already (it asks once).
    var asked: Bool { get set }
    /// Notes what the app hears of before and between launches (a tap, a copy, a reinstall);
    /// called with every event, before the gate sees it.
    mutating func hear(_ event: JourneyEvent, of journey: Journey)
    /// What the first launch finds at `now`: a catalog link and its capture time, or nothing.
    func find(in journey: Journey, now: UInt32) -> (link: UInt8, at: UInt32)?
}

extension FirstLaunchPeerModel {
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
        hear(event, of: journey)
        let now = event.atSeconds
        switch event.kind {
        case .launch:
            guard !asked, journey.scenario.platform != .installed else { break }
            asked = true
            guard let found = find(in: journey, now: now) else { break }
            running = gate.capture(found.link, at: found.at, now: now, step: step, observation: &observation)
        case .appReady, .loginSucceeded, .sessionRestored, .logout, .universalLinkOpen, .kill, .crashArmed,
            .appDeleted:
            running = gate.apply(event, of: journey, running: running, step: step, observation: &observation)
        case .tap, .clipboardCopy, .clipInvoked, .clipHandoffWrite, .storeVisit, .install, .referrerFetch,
            .referrerRetry, .loginFailed, .clockJump, .clipDataPurged:
            break
        }
    }
}
