/// One simulated user, from the tap on a link to the outcome: the world it lives in (platform,
/// links, background conditions for the fingerprint and clipboard strategies) and a script of
/// timestamped events that every strategy and the ``Oracle`` replay in order.
///
/// A journey is a fixed-size value (no heap allocation): ``JourneyGenerator`` builds it from
/// `(seed, index)` alone, so any journey regenerates on its own for replay and sharding.
///
/// Thread safety: a value type; `Sendable`.
public struct Journey: Sendable {
    /// The most events a journey can hold; the generator's scripts stay below it.
    public static let capacity = 48

    public var seed: UInt64
    public var index: UInt64
    public var scenario: ScenarioClass
    /// Catalog ids (``LinkCatalog``) of the tapped links, in tap order. For organic, not-set and
    /// bare-token installs `links[0]` is the referrer the store hands over without any tap.
    public var links: (UInt8, UInt8)
    /// How many of ``links`` were tapped (0, 1 or 2).
    public var linkCount: UInt8
    /// Background conditions that only some strategies see.
    public var world: JourneyWorld
    /// The perturbations composed on top of the scenario's own (see ``ExtraPerturbations``).
    public var extras: ExtraPerturbations = []
    /// Whether every built-in strategy meets the journey's first capture and the gate signal after
    /// it from two threads at once (an `exec:` strategy meets them in order).
    public var racing: Bool
    /// Whether the app's router is not ready the first time a link is offered to it (the screen
    /// is not there yet): it declines, and the link must be offered again at the next signal.
    /// Only `core`'s router can decline; the peers' navigation always takes the link.
    public var routerNotReady: Bool
    public var eventCount: Int
    public var events: InlineArray<48, JourneyEvent>

    public init(seed: UInt64, index: UInt64, scenario: ScenarioClass) {
        self.seed = seed
        self.index = index
        self.scenario = scenario
        self.links = (0, 0)
        self.linkCount = 0
        self.world = JourneyWorld()
        self.racing = false
        self.routerNotReady = false
        self.eventCount = 0
        self.events = InlineArray(repeating: JourneyEvent(.tap, at: 0))
    }

    /// The catalog id of the link the store or clip hands over: the last one tapped (Play keeps
    /// the referrer of the latest store visit; a clip's second handoff overwrites nothing but is
    /// newer), or the untapped referrer of an organic install.
    public var latestLink: UInt8 { linkCount >= 2 ? links.1 : links.0 }

    /// The catalog id of tap number `slot` (0 or 1).
    public func link(slot: UInt8) -> UInt8 { slot == 0 ? links.0 : links.1 }

    /// When tap `slot` last happened before step `limit` (the first event's time when there was no
    /// such tap). Play reports the click of the latest tap so far: a tap later in the script (the
    /// same link opened again) is not it.
    public func tapTime(slot: UInt8, before limit: Int) -> UInt32 {
        // Through a span: `events[step]` in a loop copies the whole inline array per iteration.
        Self.tapTime(slot: slot, before: limit, in: events.span, count: eventCount)
    }

    /// ``tapTime(slot:before:)`` over the span of a journey's events (the first `count`), for a
    /// caller that holds one already: taking the span of a borrowed journey copies its events.
    public static func tapTime(slot: UInt8, before limit: Int, in events: Span<JourneyEvent>, count: Int) -> UInt32 {
        guard count > 0 else { return 0 }
        var time = events[0].atSeconds
        var step = 0
        while step < min(limit, count) {
            let event = events[step]
            if event.kind == .tap, event.argument == slot { time = event.atSeconds }
            step += 1
        }
        return time
    }

    /// How many perturbations the journey composes: its scenario's (unless `none`) and the extras.
    public var perturbationCount: Int {
        (scenario.perturbation == .none ? 0 : 1) + extras.rawValue.nonzeroBitCount
    }

    /// Appends `event`; returns false (and drops it) when the script is full.
    @discardableResult
    public mutating func append(_ event: JourneyEvent) -> Bool {
        guard eventCount < Self.capacity else { return false }
        events[eventCount] = event
        eventCount += 1
        return true
    }

    /// Inserts `event` before position `position`; returns false when the script is full.
    @discardableResult
    public mutating func insert(_ event: JourneyEvent, at position: Int) -> Bool {
        guard eventCount < Self.capacity, position >= 0, position <= eventCount else { return false }
        var cursor = eventCount
        while cursor > position {
            events[cursor] = events[cursor - 1]
            cursor -= 1
        }
        events[position] = event
        eventCount += 1
        return true
    }

    /// The time of the last event, in seconds since the first tap (0 for an empty script).
    public var endSeconds: UInt32 { Self.endSeconds(in: events.span, count: eventCount) }

    /// ``endSeconds`` over the span of a journey's events (the first `count`), for a caller that
    /// holds one already: each access to a borrowed journey's events copies them.
    public static func endSeconds(in events: Span<JourneyEvent>, count: Int) -> UInt32 {
        count == 0 ? 0 : events[count - 1].atSeconds
    }
}

/// Conditions around a journey that only the fingerprint and clipboard strategies see.
///
/// Thread safety: a value type; `Sendable`.
public struct JourneyWorld: Sendable, Hashable {
    /// Another user behind the same IP with the same device attributes tapped a different link
    /// (catalog id ``collidingLink``) within the fingerprint window, after this user's tap.
    public var fingerprintCollision: Bool = false
    public var collidingLink: UInt8 = 0
    /// The device's IP changed between the tap and the first launch (Wi-Fi to cellular).
    public var ipChanged: Bool = false
    /// iOS: Safari's requests went through iCloud Private Relay (another IP than the app's).
    public var privateRelay: Bool = false
    /// The clipboard was cleared before the first launch.
    public var clipboardCleared: Bool = false
    /// The user declines iOS's "pasted from Safari" prompt at first launch.
    public var pasteDeclined: Bool = false

    public init() {}
}

/// A journey's reporting class: platform × capture source × the one perturbation it exercises.
///
/// Thread safety: a value type; `Sendable`.
public struct ScenarioClass: Sendable, Hashable {
    public var platform: Platform
    public var perturbation: Perturbation

    public init(platform: Platform, perturbation: Perturbation) {
        self.platform = platform
        self.perturbation = perturbation
    }

    /// The capture source that follows from the platform.
    public var source: Source { platform.source }

    /// `platform/source/perturbation`, e.g. `android/referrer/kill`.
    public var name: String { "\(platform.name)/\(source.rawValue)/\(perturbation.name)" }

    /// A dense index in `0..<ScenarioClass.count`, for counter tables.
    public var denseIndex: Int { Int(platform.rawValue) * Perturbation.allCases.count + Int(perturbation.rawValue) }

    /// How many scenario classes exist.
    public static let count = Platform.allCases.count * Perturbation.allCases.count

    /// The class at a dense index (inverse of ``denseIndex``).
    public init(denseIndex: Int) {
        let perturbations = Perturbation.allCases.count
        self.platform = Platform(rawValue: UInt8(denseIndex / perturbations)) ?? .ios
        self.perturbation = Perturbation(rawValue: UInt8(denseIndex % perturbations)) ?? .none
    }

    /// How a link reaches the app.
    public enum Source: String, Sendable {
        case clip
        case referrer
        case universalLink
    }
}

/// Where the journey happens.
public enum Platform: UInt8, Sendable, Hashable, CaseIterable {
    /// iOS, app not installed: App Clip handoff through the App Group container.
    case ios
    /// Android, app not installed: Play Install Referrer.
    case android
    /// The app is already installed and running: a universal link / App Link (warm path).
    case installed

    public var name: String {
        switch self {
        case .ios: "ios"
        case .android: "android"
        case .installed: "installed"
        }
    }

    public var source: ScenarioClass.Source {
        switch self {
        case .ios: .clip
        case .android: .referrer
        case .installed: .universalLink
        }
    }
}

/// The one disturbance a journey exercises (SPEC 4.1). Each is drawn with the weight the scenario
/// mix gives it, among those that apply to the journey's platform.
public enum Perturbation: UInt8, Sendable, Hashable, CaseIterable {
    /// The happy path.
    case none
    /// Login long after the link arrived (after a relaunch).
    case lateLogin
    /// A failed login attempt, then success or nothing.
    case loginFailed
    /// The user never logs in.
    case noLogin
    /// Logged in, then logged out before the link arrives (Android, installed).
    case logout
    /// The process is killed at a random step and relaunched.
    case kill
    /// The process dies inside the route call, after the consumed mark, before the router.
    case crashWindow
    /// Later launches deliver the same referrer / read the same handoff again.
    case duplicateDelivery
    /// A second tap on another link before the install completes.
    case secondTap
    /// The clock jumps past the time-to-live before the link can be routed.
    case clockJump
    /// The payload is hostile or malformed.
    case hostile
    /// An organic install (Play's `utm_medium=organic` placeholder, no tap).
    case organic
    /// Play's `(not set)` placeholder referrer.
    case notSet
    /// A bare token referrer with no payload.
    case bareToken
    /// A double-encoded referrer (decode once, parse again).
    case doubleEncoded
    /// The referrer arrives late, after `appReady` and login.
    case referrerDelayed
    /// `SERVICE_UNAVAILABLE` on first launch; the next launch succeeds.
    case referrerUnavailable
    /// `SERVICE_DISCONNECTED`, then a retry in the same launch succeeds.
    case referrerDisconnected
    /// `FEATURE_NOT_SUPPORTED`: the API never answers.
    case featureNotSupported
    /// The App Clip ran but the full app was never installed.
    case clipOnly
    /// A gate-bypass link: the orders screen spelled so that a byte-prefix gate misses it (an
    /// encoded letter, no trailing slash, a query instead of a segment, upper case), or a payload
    /// that must be refused (an encoded slash, a bidi or zero-width character, a lone `%`, the
    /// payload key twice). Half the users never log in.
    case gateBypass
    /// A link bound to one account (an invite for alice) on a device where another account logs
    /// in first; alice logs in later, or never (Android).
    case otherAccount
    /// A forged payload on a route that requires a signature (``ExampleApp/signedPrefixes``):
    /// unsigned, tampered with, expired or signed with an unknown key; or a genuine signed link
    /// that is opened again after it was routed (a replayed nonce).
    case forged

    public var name: String {
        switch self {
        case .none: "none"
        case .lateLogin: "lateLogin"
        case .loginFailed: "loginFailed"
        case .noLogin: "noLogin"
        case .logout: "logout"
        case .kill: "kill"
        case .crashWindow: "crashWindow"
        case .duplicateDelivery: "duplicateDelivery"
        case .secondTap: "secondTap"
        case .clockJump: "clockJump"
        case .hostile: "hostile"
        case .organic: "organic"
        case .notSet: "notSet"
        case .bareToken: "bareToken"
        case .doubleEncoded: "doubleEncoded"
        case .referrerDelayed: "referrerDelayed"
        case .referrerUnavailable: "referrerUnavailable"
        case .referrerDisconnected: "referrerDisconnected"
        case .featureNotSupported: "featureNotSupported"
        case .clipOnly: "clipOnly"
        case .gateBypass: "gateBypass"
        case .otherAccount: "otherAccount"
        case .forged: "forged"
        }
    }

    /// Whether the perturbation can happen on `platform`.
    public func applies(to platform: Platform) -> Bool {
        switch self {
        case .none, .lateLogin, .loginFailed, .noLogin, .hostile, .gateBypass, .forged:
            true
        case .kill, .crashWindow, .duplicateDelivery, .secondTap, .clockJump:
            platform != .installed
        case .logout:
            platform != .ios
        case .organic, .notSet, .bareToken, .doubleEncoded, .referrerDelayed, .referrerUnavailable,
            .referrerDisconnected, .featureNotSupported, .otherAccount:
            platform == .android
        case .clipOnly:
            platform == .ios
        }
    }
}

/// Perturbations composed on top of a journey's own (its ``ScenarioClass`` names only that one).
/// How many a journey gets is drawn from ``ScenarioMix/extraPerturbationCounts``; which ones,
/// uniformly among those that apply to the platform and are not the journey's own.
///
/// Thread safety: a value type; `Sendable`.
public struct ExtraPerturbations: OptionSet, Sendable, Hashable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// A kill and relaunch at a random point after the first launch.
    public static let kill = ExtraPerturbations(rawValue: 1 << 0)
    /// One to three more relaunches at the end (re-deliveries, re-reads).
    public static let duplicateDelivery = ExtraPerturbations(rawValue: 1 << 1)
    /// The install takes hours or days (the fingerprint window passes; the time-to-live nears).
    public static let delayedInstall = ExtraPerturbations(rawValue: 1 << 2)
    /// The device clock is set back by hours or days after the first launch.
    public static let clockBackwards = ExtraPerturbations(rawValue: 1 << 3)
    /// iOS: the clip card is never tapped (the user goes straight to the App Store): no handoff.
    public static let clipSkipped = ExtraPerturbations(rawValue: 1 << 4)
    /// iOS: the clip's data is purged before the full app's first launch.
    public static let clipDataPurged = ExtraPerturbations(rawValue: 1 << 5)
    /// The app is deleted unopened and installed again: from a new tap (iOS) or the same Play
    /// listing (Android, a new install-begin timestamp).
    public static let reinstall = ExtraPerturbations(rawValue: 1 << 6)

    /// Every extra with its name, in order: extra `i` is bit `i` of the raw value.
    public static let named: [(extra: ExtraPerturbations, name: String)] = [
        (.kill, "kill"), (.duplicateDelivery, "duplicateDelivery"), (.delayedInstall, "delayedInstall"),
        (.clockBackwards, "clockBackwards"), (.clipSkipped, "clipSkipped"), (.clipDataPurged, "clipDataPurged"),
        (.reinstall, "reinstall"),
    ]

    /// The names of the extras in this set.
    public var names: [String] { Self.named.filter { contains($0.extra) }.map(\.name) }

    /// The extras that can be composed with a journey of `platform` whose own perturbation is
    /// `perturbation`.
    public static func applicable(to platform: Platform, with perturbation: Perturbation) -> [ExtraPerturbations] {
        let candidates = Candidates(platform: platform, perturbation: perturbation)
        return (0..<candidates.count).map { candidates[$0] }
    }

    /// ``applicable(to:with:)`` in place, in the same order, for the generator's draw (once per
    /// journey, where an array would be allocated and freed).
    ///
    /// Thread safety: a value type.
    struct Candidates {
        /// Raw values; every extra at most once.
        private var members = InlineArray<7, UInt16>(repeating: 0)
        private(set) var count = 0

        init(platform: Platform, perturbation: Perturbation) {
            guard platform != .installed, perturbation != .clipOnly else { return }
            append(.delayedInstall)
            append(.clockBackwards)
            append(.reinstall)
            if perturbation != .kill && perturbation != .crashWindow { append(.kill) }
            if perturbation != .duplicateDelivery && perturbation != .crashWindow { append(.duplicateDelivery) }
            if platform == .ios && perturbation != .secondTap {
                append(.clipSkipped)
                append(.clipDataPurged)
            }
        }

        private mutating func append(_ extra: ExtraPerturbations) {
            members[count] = extra.rawValue
            count += 1
        }

        subscript(index: Int) -> ExtraPerturbations { ExtraPerturbations(rawValue: members[index]) }

        /// Removes and returns candidate `index`; the later ones move up.
        mutating func remove(at index: Int) -> ExtraPerturbations {
            let removed = self[index]
            for position in index..<(count - 1) { members[position] = members[position + 1] }
            count -= 1
            return removed
        }
    }
}
