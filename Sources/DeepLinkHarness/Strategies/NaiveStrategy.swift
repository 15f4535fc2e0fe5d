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
package struct NaiveStrategy: LockedPeerStrategy {
    package var kind: StrategyKind { .naive }
    /// No validator, no time-to-live, no placeholders, one slot: it can only tell that it died
    /// before routing.
    package var distinctions: StrategyObservation.Reasons { .crashWindow }
    let peer = LockedPeer(NaiveModel())
    var races: RaceDelivery

    package init(context: StrategyContext) { races = RaceDelivery(context: context) }
}
