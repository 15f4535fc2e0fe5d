/// What happened to one journey under one strategy, or what the ``Oracle`` says must happen.
///
/// *Violations* are ``misrouted``, ``duplicated``, ``premature`` and ``lost``: a correct
/// implementation never shows them.
///
/// Thread safety: a value type; `Sendable`.
public enum JourneyOutcome: Sendable, Hashable {
    /// Routed once, to the right link, once its gate was open.
    case routed
    /// Routed to a link other than the one expected (another user's, a hostile one, an expired one).
    case misrouted
    /// The right link, routed more than once.
    case duplicated
    /// Routed while a required event (appReady, login) was missing.
    case premature
    /// Expected to route, never routed.
    case lost
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
        case .misrouted, .duplicated, .premature, .lost: true
        case .routed, .expired, .rejected, .superseded, .organic, .notSet, .noLink, .crashWindow: false
        }
    }

    /// The name used in reports: `routed`, …, `rejected:dotSegment`, ….
    public var name: String {
        switch self {
        case .routed: "routed"
        case .misrouted: "misrouted"
        case .duplicated: "duplicated"
        case .premature: "premature"
        case .lost: "lost"
        case .expired: "expired"
        case .rejected(let reason): "rejected:\(reason.name)"
        case .superseded: "superseded"
        case .organic: "organic"
        case .notSet: "notSet"
        case .noLink: "noLink"
        case .crashWindow: "crashWindow"
        }
    }

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
        case .rejected(let reason): 11 + Int(reason.rawValue)
        }
    }

    public static let count = 11 + RejectionReason.allCases.count

    /// The outcome at a dense index (inverse of ``denseIndex``).
    public init(denseIndex: Int) {
        switch denseIndex {
        case 0: self = .routed
        case 1: self = .misrouted
        case 2: self = .duplicated
        case 3: self = .premature
        case 4: self = .lost
        case 5: self = .expired
        case 6: self = .superseded
        case 7: self = .organic
        case 8: self = .notSet
        case 9: self = .noLink
        case 10: self = .crashWindow
        default: self = .rejected(RejectionReason(rawValue: UInt8(clamping: denseIndex - 11)) ?? .empty)
        }
    }

    /// Every outcome, in dense-index order.
    public static var all: [JourneyOutcome] { (0..<count).map(JourneyOutcome.init(denseIndex:)) }
}

/// What a strategy did with one journey: every router call (step and catalog id of the link),
/// whether it died in the crash window. Fixed size, no references.
///
/// Thread safety: a value type; `Sendable`.
public struct StrategyObservation: Sendable {
    /// Router calls recorded (at most ``capacity``; ``routeCount`` keeps counting beyond).
    public static let capacity = 4
    public var routeCount: Int = 0
    public var routeSteps: InlineArray<4, UInt8> = InlineArray(repeating: 0)
    public var routeLinks: InlineArray<4, UInt8> = InlineArray(repeating: 0)
    /// The strategy's own reason when it rejected a payload (for traces).
    public var rejection: RejectionReason?
    /// The process died in the crash window at least once.
    public var crashed = false

    public init() {}

    /// Records a router call for catalog link `link` while handling event `step`.
    @inline(__always)
    public mutating func route(link: UInt8, step: Int) {
        if routeCount < Self.capacity {
            routeSteps[routeCount] = UInt8(truncatingIfNeeded: step)
            routeLinks[routeCount] = link
        }
        routeCount += 1
    }
}
