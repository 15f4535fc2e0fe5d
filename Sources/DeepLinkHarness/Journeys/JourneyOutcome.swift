/// What happened to one journey under one strategy, or what the ``Oracle`` says must happen.
///
/// *Violations* are ``misrouted``, ``stale``, ``unsafe``, ``duplicated``, ``premature``, ``lost``,
/// ``late``, ``misjudged``, ``hung`` and ``trapped``: a correct implementation never shows them. The oracle's
/// expectation is never a violation.
///
/// Thread safety: a value type; `Sendable`.
public enum JourneyOutcome: Sendable, Hashable {
    /// Routed once, to the right link, once its gate was open, at the step it was due.
    case routed
    /// Routed to a link other than the one expected (another user's, or an older tap).
    case misrouted
    /// Routed the right destination, but older than its time-to-live (it should have expired).
    case stale
    /// Routed a payload that must be rejected (hostile or malformed) or a placeholder.
    case unsafe
    /// The right link, routed more than once.
    case duplicated
    /// Routed while a required event (appReady, login) was missing.
    case premature
    /// Expected to route, never routed.
    case lost
    /// The right link, routed after the step at which it was due.
    case late
    /// Nothing routed, as expected, but the strategy gave a different reason than the oracle
    /// (wrong rejection reason, organic vs not set, expired vs superseded, …).
    case misjudged
    /// The journey did not finish within the watchdog's limit.
    case hung
    /// The strategy killed the process (a trap, a crash) on this journey; a supervised run ran the
    /// other journeys again without it.
    case trapped
    /// Older than its time-to-live before its gate opened; not routed.
    case expired
    /// Rejected by validation with this reason; not routed.
    case rejected(RejectionReason)
    /// Several links were pending; the newest was routed once and the older ones dropped.
    case superseded
    /// An organic install: nothing to route.
    case organic
    /// Play's `(not set)` referrer: nothing to route.
    case notSet
    /// No link reached the app (no payload, API unsupported, clip without install).
    case noLink
    /// The process died between the consumed mark and the router call (at most once).
    case crashWindow

    /// Whether this outcome is a correctness violation.
    public var isViolation: Bool {
        switch self {
        case .misrouted, .stale, .unsafe, .duplicated, .premature, .lost, .late, .misjudged, .hung, .trapped: true
        case .routed, .expired, .rejected, .superseded, .organic, .notSet, .noLink, .crashWindow: false
        }
    }

    /// The name used in reports: `routed`, …, `rejected:dotSegment`, ….
    public var name: String {
        switch self {
        case .routed: "routed"
        case .misrouted: "misrouted"
        case .stale: "stale"
        case .unsafe: "unsafe"
        case .duplicated: "duplicated"
        case .premature: "premature"
        case .lost: "lost"
        case .late: "late"
        case .misjudged: "misjudged"
        case .hung: "hung"
        case .trapped: "trapped"
        case .expired: "expired"
        case .rejected(let reason): "rejected:\(reason.name)"
        case .superseded: "superseded"
        case .organic: "organic"
        case .notSet: "notSet"
        case .noLink: "noLink"
        case .crashWindow: "crashWindow"
        }
    }

    /// The outcomes without a reason, in dense-index order (rejections follow them).
    static let plain: [JourneyOutcome] = [
        .routed, .misrouted, .duplicated, .premature, .lost, .expired, .superseded, .organic, .notSet, .noLink,
        .crashWindow, .stale, .unsafe, .late, .misjudged, .hung, .trapped,
    ]

    /// A dense index in `0..<JourneyOutcome.count`, for counter tables.
    public var denseIndex: Int {
        switch self {
        case .routed: 0
        case .misrouted: 1
        case .duplicated: 2
        case .premature: 3
        case .lost: 4
        case .expired: 5
        case .superseded: 6
        case .organic: 7
        case .notSet: 8
        case .noLink: 9
        case .crashWindow: 10
        case .stale: 11
        case .unsafe: 12
        case .late: 13
        case .misjudged: 14
        case .hung: 15
        case .trapped: 16
        case .rejected(let reason): Self.plain.count + Int(reason.rawValue)
        }
    }

    public static let count = plain.count + RejectionReason.allCases.count

    /// The outcome at a dense index (inverse of ``denseIndex``).
    public init(denseIndex: Int) {
        if denseIndex >= 0, denseIndex < Self.plain.count {
            self = Self.plain[denseIndex]
        } else {
            self = .rejected(RejectionReason(rawValue: UInt8(clamping: denseIndex - Self.plain.count)) ?? .empty)
        }
    }

    /// Every outcome, in dense-index order.
    public static var all: [JourneyOutcome] { (0..<count).map(JourneyOutcome.init(denseIndex:)) }

    /// Every violation, in dense-index order.
    public static var violations: [JourneyOutcome] { plain.filter(\.isViolation) }
}

/// What a strategy did with one journey, in its own words: every router call (step and catalog id
/// of the link), and its own account of what it did not route (``reported``, with the rejection
/// reason it gave). The ``Oracle`` compares this account with its expectation; nothing here is
/// ever copied from the expectation. Fixed size, no references.
///
/// Thread safety: a value type; `Sendable`.
public struct StrategyObservation: Sendable {
    /// Router calls recorded (at most ``capacity``; ``routeCount`` keeps counting beyond).
    public static let capacity = 4
    public var routeCount: Int = 0
    public var routeSteps: InlineArray<4, UInt8> = InlineArray(repeating: 0)
    public var routeLinks: InlineArray<4, UInt8> = InlineArray(repeating: 0)
    /// The reasons the strategy itself gave for links it did not route.
    public var reported: Reasons = []
    /// The strategy's own reason when it rejected a payload (the last one it rejected).
    public var rejection: RejectionReason?
    /// Steps `raceStep` and `raceStep + 1` were delivered at once, from two threads (-1: none): a
    /// route recorded at `raceStep + 1` may have been due at `raceStep`.
    public var raceStep: Int = -1
    /// How many distinct threads delivered the race's inputs, as the race machinery observed them:
    /// OS threads, or the fibers of a controlled race (each its own stack; Docs/Scheduling.md).
    /// 0: no race; 1: one thread delivered both (a partner that did not take its input in time).
    public var raceThreads: UInt8 = 0
    /// Something the harness's audit of the strategy found wrong after the journey (a link left
    /// stranded in a queue, a router call naming no known link); `nil` when nothing.
    public var auditFinding: AuditFinding?
    /// The decision paths the strategy reports having taken (for `coverage.csv`; only strategies
    /// that drive DeepLinkCore report any).
    public var paths: DecisionPaths = []
    /// The core's schedule points its controlled race reached and the pairs it interleaved (for
    /// `coverage.csv`; empty without a controlled race).
    public var schedule = ScheduleCoverage()

    public init() {}

    /// The process died in the crash window at least once.
    public var crashed: Bool {
        get { reported.contains(.crashWindow) }
        set {
            if newValue { reported.insert(.crashWindow) } else { reported.remove(.crashWindow) }
        }
    }

    /// Records a router call for catalog link `link` while handling event `step`.
    @inline(__always)
    public mutating func route(link: UInt8, step: Int) {
        if routeCount < Self.capacity {
            routeSteps[routeCount] = UInt8(truncatingIfNeeded: min(step, 255))
            routeLinks[routeCount] = link
        }
        routeCount += 1
    }

    /// Records that the strategy rejected a payload for `reason`.
    @inline(__always)
    public mutating func reject(_ reason: RejectionReason) {
        reported.insert(.rejected)
        rejection = reason
    }

    /// Reasons a strategy gives for not routing, as a set: what one journey's strategy reported,
    /// or what a strategy is able to tell apart at all (``Strategy/distinctions``).
    ///
    /// Thread safety: a value type; `Sendable`.
    public struct Reasons: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// A payload was rejected (``StrategyObservation/rejection`` says why).
        public static let rejected = Reasons(rawValue: 1 << 0)
        /// Play's organic-install placeholder.
        public static let organic = Reasons(rawValue: 1 << 1)
        /// Play's `(not set)` placeholder.
        public static let notSet = Reasons(rawValue: 1 << 2)
        /// A link older than its time-to-live was dropped.
        public static let expired = Reasons(rawValue: 1 << 3)
        /// An older link was dropped in favour of a newer one.
        public static let superseded = Reasons(rawValue: 1 << 4)
        /// The process died between the consumed mark and the router call.
        public static let crashWindow = Reasons(rawValue: 1 << 5)

        /// Every reason.
        public static let all: Reasons = [.rejected, .organic, .notSet, .expired, .superseded, .crashWindow]
    }

    /// What the harness's post-journey audit found.
    public enum AuditFinding: UInt8, Sendable, Hashable {
        /// A captured link was still in the strategy's queue, never decided, when the journey ended.
        case strandedCapture
        /// The router was called with a link that is none of the catalog's.
        case unknownLink
        /// An `exec:` child crashed, wrote invalid JSON or broke the journey protocol on this
        /// journey (judged `trapped`).
        case childFailed
        /// An `exec:` child did not finish this journey within its timeout (judged `hung`).
        case childHung
        /// A referrer's link reached the router without the campaign it was captured with.
        case attributionLost
        /// The controlled scheduler found the race deadlocked (every logical thread blocked) or
        /// livelocked (past its step bound) (judged `hung`; `replay` prints the interleaving).
        case scheduleHung
        /// An `exec:` child that answered protocol 1 was not sent this journey: judging it needs
        /// the signing keys only protocol 2 hands over (judged `noLink`, counted apart as not
        /// supported by the program, never as its violation).
        case unsupported
    }
}
