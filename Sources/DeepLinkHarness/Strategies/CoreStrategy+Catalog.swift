import DeepLinkCore

#if canImport(Glibc)
import Glibc
#endif

// What the core strategy knows of the journeys' catalog and events: the bytes it delivers, the
// links it expects to see routed, and which steps a racing journey delivers at once.
extension CoreStrategy {
    /// The UTF-8 bytes of each catalog referrer (and an empty one).
    static let referrerBytes = UTF8Table(LinkCatalog.entries.map(\.referrer) + [""])

    /// The campaign of each catalog referrer, parsed once: what a referrer's link must still carry
    /// when it reaches the router (through the queue, the machine, the store and any decline).
    static let referrerAttributions: [LinkAttribution] = (0..<referrerBytes.count).map { index in
        var attribution = LinkAttribution()
        _ = referrerBytes.withBytes(index) { bytes in
            ReferrerParser().withReferrer(in: bytes) { parsed in attribution.assign(from: parsed) }
        }
        return attribution
    }

    /// Whether a routed referrer link carries the campaign of the journey's referrer (the latest
    /// tap's: Play hands over the referrer of the latest store visit).
    static func carriesItsCampaign(_ pending: PendingLink, candidates: (UInt8, UInt8)) -> Bool {
        var carried = pending.attribution
        carried.clickTimestampSeconds = 0
        return carried == referrerAttributions[Int(candidates.1)] || carried == referrerAttributions[Int(candidates.0)]
    }
    /// The UTF-8 bytes of each catalog URL (and an empty one).
    static let urlBytes = UTF8Table(LinkCatalog.entries.map(\.url) + [""])
    /// The canonical link of every routable catalog entry, to name what the router received.
    static let canonicalLinks: [DeepLink?] = LinkCatalog.entries.map { entry in
        guard case .route(let canonical, _) = entry.verdict else { return nil }
        return DeepLink(validated: canonical)
    }
    /// The UTF-8 bytes of each canonical link (empty for entries that never route): compared in
    /// place, where comparing `DeepLink?` values copies two 512-byte links per check.
    static let canonicalBytes: [[UInt8]] = canonicalLinks.map { link in link?.withUTF8Bytes { Array($0) } ?? [] }

    /// The catalog id of the routable entry whose canonical link is `bytes`, trying `candidates`
    /// first (the journey's own links), or `LinkCatalog.unknownID`.
    static func catalogID(of bytes: UnsafeRawBufferPointer, candidates: (UInt8, UInt8)) -> UInt8 {
        func matches(_ index: Int) -> Bool {
            // memcmp: the generic `elementsEqual` walks byte by byte through iterators.
            canonicalBytes[index].withUnsafeBytes { canonical in
                guard !canonical.isEmpty, canonical.count == bytes.count else { return false }
                return memcmp(canonical.baseAddress!, bytes.baseAddress!, bytes.count) == 0
            }
        }
        // The later candidate wins when both match, then the last catalog entry.
        if matches(Int(candidates.1)) { return candidates.1 }
        if matches(Int(candidates.0)) { return candidates.0 }
        var id = LinkCatalog.unknownID
        for index in canonicalBytes.indices where matches(index) { id = UInt8(index) }
        return id
    }

    /// The first capture in the journey that is immediately followed by a gate signal, preferring
    /// a capture of a link (a referrer, a universal link) to a launch's load.
    static func racingPair(in journey: Journey) -> RacingPair? {
        // The events by span: passed whole, the journey was copied into each call.
        let events = journey.events.span
        return racingPair(in: events, count: journey.eventCount, launches: false)
            ?? racingPair(in: events, count: journey.eventCount, launches: true)
    }

    /// ``racingPair(in:)`` among the first `count` of `events`, a launch's load counting as a
    /// capture when `launches`.
    static func racingPair(in events: Span<JourneyEvent>, count: Int, launches: Bool) -> RacingPair? {
        guard count >= 2 else { return nil }
        for step in 0..<(count - 1) {
            let capture = events[step]
            let isCapture: Bool
            switch capture.kind {
            case .launch: isCapture = launches
            case .universalLinkOpen: isCapture = true
            case .referrerFetch, .referrerRetry: isCapture = capture.referrerResult.delivered
            case .tap, .clipInvoked, .clipHandoffWrite, .storeVisit, .install, .appReady, .loginSucceeded, .loginFailed,
                .sessionRestored, .logout, .kill, .crashArmed, .clockJump, .clipboardCopy, .appDeleted, .clipDataPurged:
                isCapture = false
            }
            guard isCapture, let signal = signal(for: events[step + 1]) else { continue }
            if case .loggedOut = signal { continue }
            return RacingPair(capture: step, signal: signal)
        }
        return nil
    }

    /// The signal an event makes the app send; a login names its account.
    static func signal(for event: JourneyEvent) -> AppEvent? {
        switch event.kind {
        case .appReady: .appReady
        case .loginSucceeded, .sessionRestored: ExampleApp.login(account: event.argument)
        case .logout: .loggedOut
        case .tap, .clipInvoked, .clipHandoffWrite, .storeVisit, .install, .launch, .referrerFetch, .referrerRetry,
            .loginFailed, .kill, .crashArmed, .clockJump, .universalLinkOpen, .clipboardCopy, .appDeleted,
            .clipDataPurged:
            nil
        }
    }
}

/// A capture and the gate signal right after it, delivered at once in a racing journey.
struct RacingPair {
    var capture: Int
    var signal: AppEvent
}
