/// What happened to one journey under one strategy, or what the ``Oracle`` says must happen.
///
/// *Violations* are ``misrouted``, ``stale``, ``unsafe``, ``duplicated``, ``premature``, ``lost``,
/// ``late``, ``misjudged``, ``hung`` and ``trapped``: a correct implementation never shows them. The oracle's
/// expectation is never a violation.
///
/// Thread safety: a value type; `Sendable`.
package enum JourneyOutcome: Sendable, Hashable {
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
    package var isViolation: Bool {
        switch self {
        case .misrouted, .stale, .unsafe, .duplicated, .premature, .lost, .late, .misjudged, .hung, .trapped: true
        case .routed, .expired, .rejected, .superseded, .organic, .notSet, .noLink, .crashWindow: false
        }
    }

    /// The name used in reports: the case's name (`routed`, …), and for a rejection its reason's
    /// (`rejected:dotSegment`, …).
    package var name: String {
        if case .rejected(let reason) = self { return "rejected:\(reason.name)" }
        return Self.plainNames[denseIndex]
    }

    /// The names of ``plain``, in the same order.
    static let plainNames = plain.map { String(describing: $0) }

    /// The outcomes without a reason, in dense-index order (rejections follow them).
    static let plain: [JourneyOutcome] = [
        .routed, .misrouted, .duplicated, .premature, .lost, .expired, .superseded, .organic, .notSet, .noLink,
        .crashWindow, .stale, .unsafe, .late, .misjudged, .hung, .trapped,
    ]

    /// A dense index in `0..<JourneyOutcome.count`, for counter tables.
    package var denseIndex: Int {
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

    package static let count = plain.count + RejectionReason.allCases.count

    /// The outcome at a dense index (inverse of ``denseIndex``).
    package init(denseIndex: Int) {
        if denseIndex >= 0, denseIndex < Self.plain.count {
            self = Self.plain[denseIndex]
        } else {
            self = .rejected(RejectionReason(rawValue: UInt8(clamping: denseIndex - Self.plain.count)) ?? .link(.empty))
        }
    }

    /// Every outcome, in dense-index order.
    package static var all: [JourneyOutcome] { (0..<count).map(JourneyOutcome.init(denseIndex:)) }

    /// Every violation, in dense-index order.
    package static var violations: [JourneyOutcome] { plain.filter(\.isViolation) }
}
