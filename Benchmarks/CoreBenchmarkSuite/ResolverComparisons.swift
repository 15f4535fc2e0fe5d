import DeepLinkCore
import DeepLinkHarness
import Synchronization

/// `resolver-route`: capture a link that needs a login, signal the login, route it, log out again —
/// through ``LinkResolver`` against the article's snippet (one pending slot, one global login
/// flag) made thread-safe with a `Mutex`, so both are safe to call from any thread.
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
        let naive = NaiveDeepLinkQueue(router: router)
        let ids = IDReservation()
        return [
            Comparison(
                benchmark: "resolver-route",
                subject: BenchmarkSide("LinkResolver") { operations in
                    let before = router.routed
                    let firstID = ids.reserve(operations)
                    let bytes = measuringAllocations(operations) { index in
                        let link = PendingLink(
                            link: links[index & 63],
                            source: .appClip,
                            capturedAtNanos: 0,
                            id: firstID &+ UInt64(index)
                        )
                        resolver.capture(link)
                        resolver.signal(.loggedIn)
                        resolver.signal(.loggedOut)
                    }
                    precondition(router.routed - before == operations, "every capture must be routed once")
                    return bytes
                },
                peer: BenchmarkSide("naive snippet") { operations in
                    let bytes = measuringAllocations(operations) { index in
                        naive.enqueue(strings[index & 63])
                        naive.onEvent(loggedIn: true)
                        naive.onEvent(loggedIn: false)
                    }
                    return bytes
                }
            )
        ]
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
