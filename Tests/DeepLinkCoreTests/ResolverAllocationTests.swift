import DeepLinkCore
import DeepLinkCoreTestSupport
import Synchronization
import Testing

@Suite struct ResolverAllocationTests {
    final class CountingRouter: Router {
        let routes = Atomic<Int>(0)
        func route(_ link: PendingLink) -> RouteResult {
            routes.add(1, ordering: .relaxed)
            return .handled
        }
    }

    final class CountingObserver: ResolverObserver {
        let decisions = Atomic<Int>(0)
        func resolverDecided(_ decision: ResolverDecision) { decisions.add(1, ordering: .relaxed) }
    }

    @Test func routingALinkAllocatesNothingAfterWarmUp() throws {
        guard !Sanitizer.isActive else { return }
        #expect(AllocationCounter.isJemallocActive)
        let router = CountingRouter()
        let observer = CountingObserver()
        let resolver = LinkResolver(
            configuration: LinkResolver.Configuration(policy: TestApp.policy, timeToLiveNanos: 1_000_000),
            store: InMemoryHandoffStore(capacity: 8, consumedCapacity: 4_096),
            router: router,
            observer: observer,
            clock: ManualClock()
        )
        resolver.signal(.appReady)
        var order = ResolverFixtures.link("/orders/1", id: 0)
        var product = ResolverFixtures.link("/product/1", id: 0, source: .installReferrer)
        var nextID: UInt64 = 0
        func journey() {
            // An order waits for login (superseding nothing), a product routes at once, a duplicate
            // is ignored.
            nextID += 1
            order.id = nextID
            resolver.capture(order)
            resolver.signal(.loggedIn)
            resolver.signal(.loggedOut)
            nextID += 1
            product.id = nextID
            product.installBeginTimestamp = nextID
            resolver.capture(product)
            resolver.capture(product)
        }
        for _ in 0..<16 { journey() }
        let routesBefore = router.routes.load(ordering: .relaxed)
        let bytes = AllocationCounter.bytesAllocated {
            for _ in 0..<1_000 { journey() }
        }
        #expect(router.routes.load(ordering: .relaxed) - routesBefore == 2_000)
        #expect(bytes == 0)
    }
}
