/// What a strategy did with one journey, in its own words: every router call (step and catalog id
/// of the link), and its own account of what it did not route (``reported``, with the rejection
/// reason it gave). The ``Oracle`` compares this account with its expectation; nothing here is
/// ever copied from the expectation. Fixed size, no references.
///
/// Thread safety: a value type; `Sendable`.
package struct StrategyObservation: Sendable {
    /// Router calls recorded (at most ``capacity``; ``routeCount`` keeps counting beyond).
    package static let capacity = 4
    package var routeCount: Int = 0
    package var routeSteps: InlineArray<4, UInt8> = InlineArray(repeating: 0)
    package var routeLinks: InlineArray<4, UInt8> = InlineArray(repeating: 0)
    /// The reasons the strategy itself gave for links it did not route.
    package var reported: Reasons = []
    /// The strategy's own reason when it rejected a payload (the last one it rejected).
    package var rejection: RejectionReason?
    /// Steps `raceStep` and `raceStep + 1` were delivered at once, from two threads (-1: none): a
    /// route recorded at `raceStep + 1` may have been due at `raceStep`.
    package var raceStep: Int = -1
    /// How many distinct threads delivered the race's inputs, as the race machinery observed them:
    /// OS threads, or the fibers of a controlled race (each its own stack; Docs/Scheduling.md).
    /// 0: no race; 1: one thread delivered both (a partner that did not take its input in time).
    package var raceThreads: UInt8 = 0
    /// Something the harness's audit of the strategy found wrong after the journey (a link left
    /// stranded in a queue, a router call naming no known link); `nil` when nothing.
    package var auditFinding: AuditFinding?
    /// The decision paths the strategy reports having taken (for `coverage.csv`; only strategies
    /// that drive DeepLinkCore report any).
    package var paths: DecisionPaths = []
    /// The core's schedule points its controlled race reached and the pairs it interleaved (for
    /// `coverage.csv`; empty without a controlled race).
    package var schedule = ScheduleCoverage()

    package init() {}

    /// The process died in the crash window at least once.
    package var crashed: Bool {
        get { reported.contains(.crashWindow) }
        set {
            if newValue { reported.insert(.crashWindow) } else { reported.remove(.crashWindow) }
        }
    }

    /// Records a router call for catalog link `link` while handling event `step`.
    @inline(__always)
    package mutating func route(link: UInt8, step: Int) {
        if routeCount < Self.capacity {
            routeSteps[routeCount] = UInt8(truncatingIfNeeded: min(step, 255))
            routeLinks[routeCount] = link
        }
        routeCount += 1
    }

    /// Records that the strategy rejected a payload for `reason`.
    @inline(__always)
    package mutating func reject(_ reason: RejectionReason) {
        reported.insert(.rejected)
        rejection = reason
    }

    /// Reasons a strategy gives for not routing, as a set: what one journey's strategy reported,
    /// or what a strategy is able to tell apart at all (``Strategy/distinctions``).
    ///
    /// Thread safety: a value type; `Sendable`.
    package struct Reasons: OptionSet, Sendable, Hashable {
        package let rawValue: UInt8
        package init(rawValue: UInt8) { self.rawValue = rawValue }

        /// A payload was rejected (``StrategyObservation/rejection`` says why).
        package static let rejected = Reasons(rawValue: 1 << 0)
        /// Play's organic-install placeholder.
        package static let organic = Reasons(rawValue: 1 << 1)
        /// Play's `(not set)` placeholder.
        package static let notSet = Reasons(rawValue: 1 << 2)
        /// A link older than its time-to-live was dropped.
        package static let expired = Reasons(rawValue: 1 << 3)
        /// An older link was dropped in favour of a newer one.
        package static let superseded = Reasons(rawValue: 1 << 4)
        /// The process died between the consumed mark and the router call.
        package static let crashWindow = Reasons(rawValue: 1 << 5)

        /// Every reason.
        package static let all: Reasons = [.rejected, .organic, .notSet, .expired, .superseded, .crashWindow]
    }

    /// What the harness's post-journey audit found.
    package enum AuditFinding: UInt8, Sendable, Hashable {
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
