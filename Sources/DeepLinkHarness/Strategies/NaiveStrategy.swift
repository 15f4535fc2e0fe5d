/// The article's snippet as written (SPEC 4.2): the App Clip writes the URL into one App Group
/// key (a second clip run overwrites it); the full app reads that key at launch, enqueues it and
/// removes it from the container at once; Android enqueues whatever an `OK` referrer holds on
/// every launch (a naive `deeplink=` lookup, no double decoding) and ignores
/// `SERVICE_DISCONNECTED`; `DeepLinkQueue` keeps one in-memory `_pending` slot and one global
/// `_authReady` flag that only `loggedIn` sets (never reset by logout, blind to appReady and to
/// route policy); no validation, no time-to-live.
///
/// Expected failures: lost (kill before login, disconnected referrer, open links when the user
/// never logs in, double-encoded referrers), duplicated (the referrer re-read on later launches),
/// premature (before appReady, after logout), misrouted (hostile or expired payloads).
///
/// Thread safety: one instance per worker thread; its state is behind a lock (``LockedPeer``), as
/// the article's queue is made thread-safe, and a racing journey's raced events reach it from two
/// threads.
public struct NaiveStrategy: Strategy {
    public var kind: StrategyKind { .naive }
    /// No validator, no time-to-live, no placeholders, one slot: it can only tell that it died
    /// before routing.
    public var distinctions: StrategyObservation.Reasons { .crashWindow }
    let peer = LockedPeer(NaiveModel())
    var races: RaceDelivery

    public init(context: StrategyContext) { races = RaceDelivery(context: context) }

    public mutating func run(
        _ journey: Journey,
        into observation: inout StrategyObservation,
        metrics: inout OperationHistograms
    ) {
        peer.run(journey, into: &observation, races: &races)
    }

    public mutating func finish() { races.finish() }
}

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
