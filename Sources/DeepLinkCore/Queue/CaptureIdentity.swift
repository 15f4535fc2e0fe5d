/// What makes two captures the same capture: the one rule behind the resolver's duplicate check,
/// the stores' consumed marks and everything else that asks "was this link seen before?".
///
/// Two captures are the same when they have the same ``id``, or when both came from Play's Install
/// Referrer with the same nonzero install-begin timestamp: Play returns the same referrer on every
/// call for 90 days, and the app gives each delivery a new id, so only the timestamp ties a
/// re-delivery to the install it belongs to. Links from other sources never match by timestamp.
///
/// A ``HandoffStore`` written by the app keeps one identity per consumed link and answers
/// ``HandoffStore/wasConsumed(_:)`` with ``isSameCapture(as:)``.
///
/// Thread safety: a value type; `Sendable`.
public struct CaptureIdentity: Sendable, Hashable {
    /// The capture's id (``PendingLink/id``).
    public let id: UInt64
    /// Play's install-begin timestamp for an Install Referrer capture; 0 for every other source,
    /// and for a referrer without one (0 never matches).
    public let installBeginTimestamp: UInt64

    /// The identity of `link`: its id and, for an Install Referrer link only, its install-begin
    /// timestamp.
    @inlinable
    public init(_ link: borrowing PendingLink) {
        self.id = link.id
        self.installBeginTimestamp = link.source == .installReferrer ? link.installBeginTimestamp : 0
    }

    /// An identity read back from storage. `installBeginTimestamp` must be 0 unless the capture
    /// came from the Install Referrer (as ``init(_:)`` makes it).
    public init(id: UInt64, installBeginTimestamp: UInt64) {
        self.id = id
        self.installBeginTimestamp = installBeginTimestamp
    }

    /// Whether `other` is the same capture: the same id, or the same nonzero install-begin
    /// timestamp. Symmetric; in a scan, call it on the identity looked up (`wanted.isSameCapture(as:
    /// marks[i])`), so that its zero-timestamp test is loop-invariant and leaves the loop.
    @inlinable
    public func isSameCapture(as other: CaptureIdentity) -> Bool {
        id == other.id || (installBeginTimestamp != 0 && installBeginTimestamp == other.installBeginTimestamp)
    }
}

extension PendingLink {
    /// This capture's identity (see ``CaptureIdentity``).
    @inlinable
    public var identity: CaptureIdentity { CaptureIdentity(self) }
}
