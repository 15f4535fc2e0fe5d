/// The snippet's state: the App Group key, the process, `_pending`, `_authReady` and an armed
/// crash.
///
/// Thread safety: a value type behind ``LockedPeer``'s lock.
struct NaiveModel: PeerModel {
    var container: UInt8?
    var running = false
    var pending: UInt8?
    var authReady = false
    var crashArmed = false

    mutating func install() { self = NaiveModel() }

    mutating func startProcess() {
        running = true
        crashArmed = false
        pending = nil
        authReady = false
    }

    mutating func handle(
        _ event: JourneyEvent,
        of journey: Journey,
        step: Int,
        into observation: inout StrategyObservation
    ) {
        switch event.kind {
        case .clipHandoffWrite:
            container = journey.link(slot: event.argument & 1)
        case .launch:
            if let link = container {
                pending = link
                container = nil
                tryResolve(step: step, observation: &observation)
            }
        case .referrerFetch:
            guard running, event.referrerResult.delivered else { break }
            let link = journey.latestLink
            guard LinkCatalog.entry(link).naiveFindsPayload else { break }
            pending = link
            tryResolve(step: step, observation: &observation)
        case .loginSucceeded, .sessionRestored:
            guard running else { break }
            authReady = true
            tryResolve(step: step, observation: &observation)
        case .appReady, .logout:
            guard running else { break }
            tryResolve(step: step, observation: &observation)
        case .universalLinkOpen:
            guard running else { break }
            pending = journey.link(slot: event.argument & 1)
            tryResolve(step: step, observation: &observation)
        case .kill:
            running = false
            pending = nil
            authReady = false
        case .crashArmed:
            crashArmed = true
        case .appDeleted:
            container = nil
            running = false
            pending = nil
            authReady = false
        case .clipDataPurged:
            container = nil
        case .tap, .clipInvoked, .storeVisit, .install, .referrerRetry, .loginFailed, .clockJump, .clipboardCopy:
            break
        }
    }

    private mutating func tryResolve(step: Int, observation: inout StrategyObservation) {
        guard let link = pending, authReady else { return }
        pending = nil
        if crashArmed {
            crashArmed = false
            observation.crashed = true
            running = false
            return
        }
        observation.route(link: link, step: step)
    }
}
