/// Where a pending link was captured.
public enum LinkSource: UInt8, Sendable, Hashable, CaseIterable {
    /// iOS: an App Clip wrote the invocation URL into the shared App Group container.
    case appClip
    /// Android: the Play Install Referrer API returned the link's payload.
    case installReferrer
    /// The app was already installed: a universal link / App Link opened it directly.
    case universalLink
}

/// One captured link waiting for the resolver: a fixed-size record (no references) so that the
/// pending-link queue can store it inline in preallocated slots.
///
/// Thread safety: a value type; `Sendable`.
public struct PendingLink: Sendable {
    // The stored fields' order is the record's layout, chosen for the copies into and out of queue
    // slots and the resolver's tables (`_assign`), which copy only the bytes in use: the link's
    // bytes first, then every fixed field back to back in one block (the link's counts, which
    // `DeepLink` keeps after its bytes, through the attribution's fixed fields, which
    // `LinkAttribution` keeps before its bytes), then the attribution's and the account's bytes.
    // A typical record is then two cache lines of its slot: the sequence word with the link, and
    // the fixed block.

    /// The validated destination.
    public var link: DeepLink
    /// The capture mechanism.
    public var source: LinkSource
    /// The account's length in bytes, 0 for none (see ``account``): here, in the fixed block,
    /// rather than an optional's tag after the account's bytes.
    @usableFromInline
    internal var _accountCount: UInt8
    /// When the link was captured (the handoff's timestamp), in nanoseconds on the resolver's clock.
    public var capturedAtNanos: UInt64
    /// A unique id for this capture (handoff id for App Clips).
    public var id: UInt64
    /// For `installReferrer`: Play's install-begin timestamp, which identifies the install and
    /// stays the same on every re-delivery of the same referrer. Zero otherwise.
    public var installBeginTimestamp: UInt64
    /// The campaign the link came from (empty when the source carries none), delivered to the
    /// app with the route.
    public var attribution: LinkAttribution
    /// The account's bytes; only the first `_accountCount` are meaningful.
    @usableFromInline
    internal var _accountBytes: InlineArray<64, UInt8>

    /// The account the link is meant for, or `nil` for anyone: a bound link routes only after
    /// ``AppEvent/loggedInAs(_:)`` names this account (see ``AccountID``).
    @inlinable
    public var account: AccountID? {
        get { _accountCount == 0 ? nil : AccountID(_bytes: _accountBytes, count: _accountCount) }
        set {
            // An account id is never empty, so 0 is free to mean none.
            _accountCount = newValue?._count ?? 0
            if let newValue { _accountBytes = newValue._bytes }
        }
    }

    /// Inlinable: every capture builds one, and the call would copy the link and the record.
    @inlinable
    public init(
        link: DeepLink,
        source: LinkSource,
        capturedAtNanos: UInt64,
        id: UInt64,
        installBeginTimestamp: UInt64 = 0,
        attribution: LinkAttribution = LinkAttribution(),
        account: AccountID? = nil
    ) {
        self.link = link
        self.source = source
        self.capturedAtNanos = capturedAtNanos
        self.id = id
        self.installBeginTimestamp = installBeginTimestamp
        self.attribution = attribution
        self._accountCount = account?._count ?? 0
        self._accountBytes = account?._bytes ?? InlineArray(repeating: 0)
    }
}

extension AccountID {
    /// An id from a record's fields (``PendingLink/account``): `bytes`' first `count` (1 or more)
    /// are a valid id.
    @inlinable
    init(_bytes bytes: InlineArray<64, UInt8>, count: UInt8) {
        self._bytes = bytes
        self._count = count
    }
}
