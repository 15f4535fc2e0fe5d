/// The app's navigation: where the resolver sends a link once its gate is open.
///
/// ## Contract
/// - ``LinkResolver`` offers each link with ``route(_:)`` once its gate is open; the router answers
///   ``RouteResult/handled`` when it navigated, or ``RouteResult/notReady`` when it cannot now
///   (the screen is not there yet, the user is mid-flow). A link it did not handle stays pending,
///   in the resolver and in the store, and is offered again after the app's next
///   ``LinkResolver/signal(_:)``, unless a newer link wins or it expires first. A link is reported
///   ``ResolverDecision/routed(_:)`` once, when it was handled.
/// - *Delivery context*: `route` is called synchronously, on the thread that holds the resolver's
///   drain role: the thread whose `capture`, `signal` or `launch` call found work to do (any
///   thread, when inputs come from several). It is never called while the resolver holds its
///   lock, and never twice at the same time: all router calls of one resolver are serialized.
///   A router that must navigate on one thread (on iOS, the main actor) checks where it runs and
///   answers ``RouteResult/notReady`` elsewhere; the app then signals (any event, from that
///   thread) and the link is offered again there. ``LinkResolver``'s tests hold it to this.
/// - The router may call back into the resolver (for example `signal(.loggedIn)` after a
///   navigation); that call returns at once and is handled after `route` returns.
/// - The consumed mark is written before `route` is called and withdrawn when the router answers
///   `notReady`: a kill in between loses that one link (*at most once* across a crash).
///
/// Thread safety: called from whichever thread drains the resolver (see *Delivery context*).
public protocol Router: Sendable {
    /// Navigates to `link` (its destination is `link.link`), or answers that it cannot now. Must
    /// not block for long: it delays the resolver's other decisions.
    func route(_ link: PendingLink) -> RouteResult
}

/// What a ``Router`` did with a link it was offered.
///
/// Thread safety: a value type; `Sendable`.
public enum RouteResult: Sendable, Hashable {
    /// The app navigated to the link: it is consumed for good.
    case handled
    /// The app cannot navigate now: the link stays pending and is offered again after the next
    /// signal.
    case notReady
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
    /// copy of its whole record.
    var interests: ResolverDecision.Kinds { get }
}

extension ResolverObserver {
    public var interests: ResolverDecision.Kinds { .all }
}

/// An observer that ignores everything.
///
/// Thread safety: stateless; `Sendable`.
package struct IgnoringResolverObserver: ResolverObserver {
    public init() {}
    public func resolverDecided(_ decision: ResolverDecision) {}
    public var interests: ResolverDecision.Kinds { [] }
}
