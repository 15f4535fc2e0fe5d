import DeepLinkCore
import DeepLinkHarness
import Synchronization

/// `resolver-route`: capture a link that needs a login, signal the login, route it, log out again,
/// through ``LinkResolver`` against its fair peer: the article's snippet (one pending slot, one global
/// login flag, behind a `Mutex`) doing what exactly-once across a kill costs, through the same
/// ``HandoffStore`` type called the same way: it saves the link before holding it, and checks and
/// writes the consumed mark before routing it (``StoredDeepLinkQueue``).
///
/// `resolver-route-bare`: the same subject against the bare snippet, which keeps the link only in
/// memory and remembers nothing it routed: information, not like for like (a kill loses its link, a
/// re-delivery routes again).
enum ResolverComparisons {
    static func all() -> [Comparison] {
        let links = (0..<64).map { index in DeepLink(validated: "/orders/\(index)")! }
        let strings = links.map(\.string)
        let router = CountingRouter()
        // Virtual time standing still: links are captured "now" and never expire.
        let resolver = LinkResolver(
            configuration: .init(policy: ExampleApp.policy),
            store: RecyclingHandoffStore(),
            router: router,
            clock: ManualClock(nanos: 0)
        )
        resolver.signal(.appReady)
        let ids = IDReservation()
        let subject = BenchmarkSide("LinkResolver") { operations in
            routingEachOnce(operations, router: router, ids: ids, links: links) { link in
                resolver.capture(link)
                resolver.signal(.loggedIn)
                resolver.signal(.loggedOut)
            }
        }
        let stored = StoredDeepLinkQueue(store: RecyclingHandoffStore(), router: router)
        let naive = NaiveDeepLinkQueue(router: router)
        return [
            Comparison(
                benchmark: "resolver-route",
                subject: subject,
                peer: BenchmarkSide("snippet + store") { operations in
                    routingEachOnce(operations, router: router, ids: ids, links: links) { link in
                        stored.enqueue(link)
                        stored.onEvent(loggedIn: true)
                        stored.onEvent(loggedIn: false)
                    }
                }
            ),
            Comparison(
                benchmark: "resolver-route-bare",
                subject: subject,
                peer: BenchmarkSide("bare snippet without store (not like for like)") { operations in
                    let bytes = measuringAllocations(operations) { index in
                        naive.enqueue(strings[index & 63])
                        naive.onEvent(loggedIn: true)
                        naive.onEvent(loggedIn: false)
                    }
                    return bytes
                }
            ),
        ]
    }

    /// Runs `operation` on `operations` captures with fresh ids (so that no capture is a duplicate
    /// of an earlier one) and checks that each was routed once; returns the bytes allocated.
    private static func routingEachOnce(
        _ operations: Int,
        router: CountingRouter,
        ids: IDReservation,
        links: [DeepLink],
        _ operation: (borrowing PendingLink) -> Void
    ) -> UInt64 {
        let before = router.routed
        let firstID = ids.reserve(operations)
        let bytes = measuringAllocations(operations) { index in
            let link = PendingLink(
                link: links[index & 63],
                source: .appClip,
                capturedAtNanos: 0,
                id: firstID &+ UInt64(index)
            )
            operation(link)
        }
        precondition(router.routed - before == operations, "every capture must be routed once")
        return bytes
    }
}

/// Hands out unique link ids in blocks, so that no capture is mistaken for a duplicate.
final class IDReservation: Sendable {
    private let next = Atomic<UInt64>(1)

    /// The first of `count` fresh ids.
    func reserve(_ count: Int) -> UInt64 {
        next.add(UInt64(count), ordering: .relaxed).oldValue
    }
}

/// Counts routes; the work a real router would do is out of scope.
final class CountingRouter: Router {
    private let count = Atomic<Int>(0)

    var routed: Int { count.load(ordering: .acquiring) }

    func route(_ link: PendingLink) -> RouteResult {
        count.add(1, ordering: .relaxed)
        return .handled
    }

    func routeNaive(_ link: String) {
        count.add(link.utf8.count > 0 ? 1 : 0, ordering: .relaxed)
    }
}

/// The article's `DeepLinkQueue` (`_pending`, `_authReady`, `_tryResolve`), behind a `Mutex`.
final class NaiveDeepLinkQueue: Sendable {
    private struct State {
        var pending: String?
        var authReady = false
    }

    private let state = Mutex(State())
    private let router: CountingRouter

    init(router: CountingRouter) { self.router = router }

    func enqueue(_ link: String) {
        let ready = state.withLock { state in
            state.pending = link
            return tryResolve(&state)
        }
        if let ready { router.routeNaive(ready) }
    }

    func onEvent(loggedIn: Bool) {
        let ready = state.withLock { state in
            state.authReady = loggedIn
            return tryResolve(&state)
        }
        if let ready { router.routeNaive(ready) }
    }

    private func tryResolve(_ state: inout State) -> String? {
        guard let link = state.pending, state.authReady else { return nil }
        state.pending = nil
        return link
    }
}

/// The article's snippet with what exactly-once across a kill costs, through a ``HandoffStore``
/// called as ``LinkResolver`` calls it (an existential): the link is saved before it is held
/// (``HandoffStore/saveUnlessConsumed(_:)``; a consumed one is dropped), and the consumed mark is
/// checked and written before the router is called (``HandoffStore/markConsumed(_:)``; only the
/// call that wrote it routes). A failed store call drops the link, as the snippet has no one to tell.
final class StoredDeepLinkQueue: Sendable {
    private struct State {
        var pending: PendingLink?
        var authReady = false
    }

    private let state = Mutex(State())
    private let store: any HandoffStore
    private let router: any Router

    init(store: any HandoffStore, router: any Router) {
        self.store = store
        self.router = router
    }

    func enqueue(_ link: PendingLink) {
        guard (try? store.saveUnlessConsumed(link)) == true else { return }
        let ready = state.withLock { state in
            state.pending = link
            return tryResolve(&state)
        }
        if let ready { route(ready) }
    }

    func onEvent(loggedIn: Bool) {
        let ready = state.withLock { state in
            state.authReady = loggedIn
            return tryResolve(&state)
        }
        if let ready { route(ready) }
    }

    /// The snippet's `_tryResolve`, written with care for the record: the flag first (no copy of
    /// a link that stays), and the link moved out of its slot rather than copied and cleared.
    private func tryResolve(_ state: inout State) -> PendingLink? {
        guard state.authReady else { return nil }
        return state.pending.take()
    }

    private func route(_ link: PendingLink) {
        guard (try? store.markConsumed(link)) == true else { return }
        _ = router.route(link)
    }
}
