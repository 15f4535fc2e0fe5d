/// The app's navigation: where the resolver sends a link once its gate is open.
///
/// ``LinkResolver`` calls ``route(_:source:)`` exactly once per routed link (never for a
/// superseded, expired, duplicate or rejected one), never while holding its lock, and never twice
/// at the same time: all router calls of one resolver are serialized. The router may call back
/// into the resolver (for example `signal(.loggedIn)` after a navigation); that call returns at
/// once and is handled after `route` returns.
///
/// Thread safety: called from whichever thread drains the resolver (any producer or signaller).
public protocol Router: Sendable {
    /// Navigates to `link`. Must not block for long: it delays the resolver's other decisions.
    func route(_ link: DeepLink, source: LinkSource)
}

/// Receives every decision the resolver makes, so that a harness can count outcomes without
/// guessing.
///
/// Thread safety: decisions about links are reported by the thread draining the resolver, in
/// decision order; store failures and `queueFull` at capture are reported from the capturing
/// thread. Implementations must therefore be safe to call from any thread.
public protocol ResolverObserver: Sendable {
    func resolverDecided(_ decision: ResolverDecision)

    /// The kinds of decision this observer wants (default: all). The resolver reads it once, when
    /// it is created, and does not even build the others: each decision about a link carries a
    /// copy of its ~560-byte record.
    var interests: ResolverDecision.Kinds { get }
}

extension ResolverObserver {
    public var interests: ResolverDecision.Kinds { .all }
}

/// An observer that ignores everything.
///
/// Thread safety: stateless; `Sendable`.
public struct IgnoringResolverObserver: ResolverObserver {
    public init() {}
    public func resolverDecided(_ decision: ResolverDecision) {}
    public var interests: ResolverDecision.Kinds { [] }
}
