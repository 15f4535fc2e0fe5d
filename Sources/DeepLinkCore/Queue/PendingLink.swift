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
public struct PendingLink: Sendable, Hashable {
    /// The validated destination.
    public var link: DeepLink
    /// The capture mechanism.
    public var source: LinkSource
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
    /// The account the link is meant for, or `nil` for anyone: a bound link routes only after
    /// ``AppEvent/loggedInAs(_:)`` names this account (see ``AccountID``).
    public var account: AccountID?

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
        self.account = account
    }
}
