/// One decision of a ``LinkResolver``, as reported to its ``ResolverObserver``.
///
/// In a process that keeps running, each captured link ends in exactly one of `routed`,
/// `superseded`, `expired` or `duplicate`; each rejected payload is reported once as `rejected`;
/// `waitingForGate`, `heldForAccount` and `routeDeclined` may precede any of them; `waitingForGate` is reported again
/// whenever what the newest link waits for changes.
///
/// Thread safety: a value type; `Sendable`.
public enum ResolverDecision: Sendable, Equatable {
    /// The link was marked consumed, then the router handled it.
    case routed(PendingLink)
    /// The router answered ``RouteResult/notReady``: the consumed mark was withdrawn and the link
    /// waits, pending, for the app's next signal (not terminal).
    case routeDeclined(PendingLink)
    /// A newer link (`byID`) was routed instead (or pushed it out of a full pending set).
    case superseded(PendingLink, byID: UInt64)
    /// The link was older than the time-to-live when the resolver looked at it.
    case expired(PendingLink, ageNanos: UInt64)
    /// The same capture was routed or is pending already (same id, or same install-begin
    /// timestamp for referrer links), in this process or, per the store, before a relaunch.
    case duplicate(PendingLink)
    /// A payload from `source` failed validation: never routed, the app stays on (falls back to)
    /// its home route. Reported by the capture call, from its thread.
    case rejected(LinkRejection, source: LinkSource)
    /// A referrer that carried no link, reported so that the app can count its installs: an
    /// organic install, Play's `(not set)`, or a referrer without a payload, with whatever
    /// campaign fields it had. Reported by
    /// ``LinkResolver/captureReferrer(_:parser:validator:capturedAtNanos:id:installBeginTimestamp:clickTimestampSeconds:)``.
    case linklessReferrer(LinklessReferrer, attribution: LinkAttribution)
    /// A referrer the parser refused (too long, too many fields): nothing was captured.
    case referrerRefused(ReferrerError)
    /// The newest pending link waits for `missing` (it always needs `appReady` too).
    case waitingForGate(PendingLink, missing: GateEvents)
    /// The newest pending link is bound to an account (``PendingLink/account``) and a session
    /// without that account is logged in: it stays pending for its own account's login (not
    /// terminal; reported once per link).
    case heldForAccount(PendingLink)
    /// A store operation failed. After a failed `markConsumed` the link is not routed (it stays
    /// pending in the store for the next launch); after a failed `save` it is still resolved in
    /// this process but would not survive a kill.
    case storeFailed(PendingLink, operation: HandoffOperation, error: HandoffStoreError)
    /// A record the store could not read at launch (skipped; nothing else is lost).
    case unreadableRecord(HandoffStoreError)
    /// The capture found the resolver's inbox full; the link stays in the store and is picked up
    /// by the next launch.
    case queueFull(PendingLink)
}

extension ResolverDecision {
    /// A set of decision kinds (one per case), for ``ResolverObserver/interests``.
    ///
    /// Thread safety: a value type; `Sendable`.
    public struct Kinds: OptionSet, Sendable, Hashable {
        public let rawValue: UInt16
        public init(rawValue: UInt16) { self.rawValue = rawValue }

        public static let routed = Kinds(rawValue: 1 << 0)
        public static let superseded = Kinds(rawValue: 1 << 1)
        public static let expired = Kinds(rawValue: 1 << 2)
        public static let duplicate = Kinds(rawValue: 1 << 3)
        public static let rejected = Kinds(rawValue: 1 << 4)
        public static let waitingForGate = Kinds(rawValue: 1 << 5)
        public static let storeFailed = Kinds(rawValue: 1 << 7)
        public static let unreadableRecord = Kinds(rawValue: 1 << 8)
        public static let queueFull = Kinds(rawValue: 1 << 9)
        public static let routeDeclined = Kinds(rawValue: 1 << 10)
        public static let linklessReferrer = Kinds(rawValue: 1 << 11)
        public static let referrerRefused = Kinds(rawValue: 1 << 12)
        public static let heldForAccount = Kinds(rawValue: 1 << 13)
        /// Every kind.
        public static let all: Kinds = [
            .routed, .superseded, .expired, .duplicate, .rejected, .waitingForGate, .storeFailed, .unreadableRecord,
            .queueFull, .routeDeclined, .linklessReferrer, .referrerRefused, .heldForAccount,
        ]
    }

    /// This decision's kind.
    public var kind: Kinds {
        switch self {
        case .routed: .routed
        case .superseded: .superseded
        case .expired: .expired
        case .duplicate: .duplicate
        case .rejected: .rejected
        case .waitingForGate: .waitingForGate
        case .storeFailed: .storeFailed
        case .unreadableRecord: .unreadableRecord
        case .queueFull: .queueFull
        case .routeDeclined: .routeDeclined
        case .linklessReferrer: .linklessReferrer
        case .referrerRefused: .referrerRefused
        case .heldForAccount: .heldForAccount
        }
    }
}

extension ResolverDecision {
    /// Why a referrer carried no link (see ``linklessReferrer(_:attribution:)``).
    ///
    /// Thread safety: a value type; `Sendable`.
    public enum LinklessReferrer: Sendable, Hashable, CaseIterable {
        /// `utm_source=google-play&utm_medium=organic`: the user found the app in the store.
        case organic
        /// `utm_source=(not set)&utm_medium=(not set)`: Play had no referrer to give.
        case notSet
        /// A referrer without a payload (a bare token, other campaign parameters only).
        case noPayload
    }
}
