import DeepLinkCore
import DeepLinkCoreTestSupport
import DeepLinkUserDefaults
import Testing

/// Records what it was offered; declines the first `declineFirst` offers.
final class CountingRouter: Router {
    private let state = Locked((offers: 0, handled: [String]()))
    let declineFirst: Int

    init(declineFirst: Int = 0) { self.declineFirst = declineFirst }

    func route(_ link: PendingLink) -> RouteResult {
        state.withLock { state in
            state.offers += 1
            guard state.offers > declineFirst else { return .notReady }
            state.handled.append(link.link.string)
            return .handled
        }
    }

    var handled: [String] { state.withLock { $0.handled } }
}

/// Records every decision's kind.
final class KindObserver: ResolverObserver {
    private let kinds = Locked([ResolverDecision.Kinds]())
    func resolverDecided(_ decision: ResolverDecision) { kinds.withLock { $0.append(decision.kind) } }
    var all: [ResolverDecision.Kinds] { kinds.withLock { $0 } }
}

@Suite struct ResolverUserDefaultsIntegrationTests {
    let configuration: LinkResolver.Configuration

    init() throws {
        configuration = LinkResolver.Configuration(
            policy: try RoutePolicy(rules: [(prefix: "/orders", requires: .loggedIn)])
        )
    }

    func resolver(_ suite: TestSuite, _ router: CountingRouter, _ observer: KindObserver) throws -> LinkResolver {
        LinkResolver(
            configuration: configuration,
            store: try suite.store(),
            router: router,
            observer: observer,
            clock: ManualClock()
        )
    }

    @Test func theLinkSurvivesAKillBeforeLoginAndTheRedeliveryIsADuplicate() throws {
        let suite = TestSuite()
        defer { suite.remove() }
        let router = CountingRouter()
        let observer = KindObserver()
        let referrer = pendingLink("/orders/4", id: 4, source: .installReferrer, installBegin: 99)

        // First process: captured and ready, but killed before the user logs in.
        let first = try resolver(suite, router, observer)
        first.signal(.appReady)
        first.capture(referrer)
        first.simulateKill()
        #expect(router.handled.isEmpty)

        // Second process: the suite still holds it; it routes after login, once.
        let second = try resolver(suite, router, observer)
        #expect(try second.launch() == 1)
        second.signal(.appReady)
        second.signal(.loggedIn)
        second.signal(.loggedIn)
        #expect(router.handled == ["/orders/4"])

        // Third process: Play re-delivers the referrer with a new id; the consumed mark refuses it.
        let third = try resolver(suite, router, observer)
        #expect(try third.launch() == 0)
        third.signal(.appReady)
        third.signal(.loggedIn)
        third.capture(pendingLink("/orders/4", id: 5, source: .installReferrer, installBegin: 99))
        #expect(router.handled == ["/orders/4"])
        #expect(observer.all.last == .duplicate)
    }

    @Test func aDeclinedLinkStaysPendingInTheSuiteAndIsOfferedAgain() throws {
        let suite = TestSuite()
        defer { suite.remove() }
        let router = CountingRouter(declineFirst: 1)
        let observer = KindObserver()
        let clip = pendingLink("/product/8", id: 8)
        let resolver = try resolver(suite, router, observer)
        resolver.capture(clip)
        resolver.signal(.appReady)
        #expect(router.handled.isEmpty)
        #expect(observer.all.contains(.routeDeclined))
        let store = try suite.store()
        #expect(try store.loadPending().pending == [clip], "declined: pending again, in the suite")
        #expect(!store.wasConsumed(clip.identity))

        resolver.signal(.loggedIn)
        #expect(router.handled == ["/product/8"])
        #expect(store.wasConsumed(clip.identity))
        #expect(try store.loadPending().pending.isEmpty)
    }
}
