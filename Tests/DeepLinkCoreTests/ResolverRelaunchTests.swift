import DeepLinkCore
import DeepLinkCoreTestSupport
import Synchronization
import Testing

/// Relaunching a resolver and its store in place (the harness reuses one per worker thread) must
/// be indistinguishable from creating new ones from the store's image, and must not allocate.
@Suite struct ResolverRelaunchTests {
    typealias F = ResolverFixtures

    /// Kills `app`'s process and starts the next one in the same objects, then launches it.
    static func relaunchInPlace(_ app: SimulatedApp) -> SimulatedApp {
        app.resolver.relaunch()
        app.store.relaunchInPlace()
        app.process.restart()
        _ = try? app.resolver.launch()
        return app
    }

    /// Four processes of one install: routes, a link left waiting for login at a kill, re-deliveries
    /// the store must refuse, and a kill in the crash window. Returns the routes and decisions.
    static func install(
        relaunch: (SimulatedApp, RecordingRouter, RecordingObserver) -> SimulatedApp
    ) -> (
        routes: [String], decisions: [ResolverDecision], crashWindows: [PendingLink],
        finalState: ResolverStateMachine.State
    ) {
        let router = RecordingRouter()
        let observer = RecordingObserver()
        var app = SimulatedApp(router: router, observer: observer)
        _ = try? app.resolver.launch()
        app.resolver.signal(.appReady)
        app.resolver.signal(.loggedIn)
        app.resolver.capture(F.link("/orders/1", id: 1, at: 1))
        app.resolver.capture(F.link("/product/2", id: 2, at: 2, source: .installReferrer, installBegin: 77))
        app.resolver.signal(.loggedOut)
        app.resolver.capture(F.link("/orders/4", id: 4, at: 4))

        // Second process: the waiting order is found again; neither appReady nor login leaked.
        app = relaunch(app, router, observer)
        app.resolver.signal(.appReady)
        app.resolver.capture(F.link("/product/2", id: 5, at: 5, source: .installReferrer, installBegin: 77))
        app.resolver.signal(.loggedIn)

        // Third process: a replayed handoff id is refused; a new order dies in the crash window.
        app = relaunch(app, router, observer)
        app.resolver.capture(F.link("/orders/1", id: 1, at: 6))
        app.resolver.signal(.appReady)
        app.resolver.capture(F.link("/orders/7", id: 7, at: 7))
        app.store.armKill(at: KillPoint(.after, .markConsumed))
        app.resolver.signal(.loggedIn)

        // Fourth process: nothing pending, nothing signalled.
        app = relaunch(app, router, observer)
        let finalState = app.resolver.state
        app.resolver.signal(.appReady)
        return (router.paths, observer.decisions, observer.crashWindows, finalState)
    }

    @Test func relaunchInPlaceDecidesExactlyLikeNewObjects() {
        let fresh = Self.install { app, router, observer in app.relaunch(router: router, observer: observer) }
        let reused = Self.install { app, _, _ in Self.relaunchInPlace(app) }

        #expect(fresh.routes == ["/orders/1", "/product/2", "/orders/4"])
        #expect(fresh.crashWindows == [F.link("/orders/7", id: 7, at: 7)])
        #expect(reused.crashWindows == fresh.crashWindows)
        #expect(reused.routes == fresh.routes)
        #expect(reused.decisions == fresh.decisions)
        #expect(reused.finalState == .starting(satisfied: []))
        #expect(fresh.finalState == reused.finalState)
    }

    @Test func relaunchForgetsTheDeadProcessButNotTheStore() throws {
        let router = RecordingRouter()
        let observer = RecordingObserver()
        let app = SimulatedApp(router: router, observer: observer)
        app.resolver.signal(.loggedIn)
        app.resolver.capture(F.link("/orders/1", id: 1, at: 1))
        #expect(app.resolver.pendingCount == 1)

        _ = Self.relaunchInPlace(app)

        #expect(app.process.isAlive)
        #expect(!app.store.isFrozen)
        #expect(app.resolver.state == .starting(satisfied: []))
        #expect(app.resolver.pendingCount == 1, "the stored order is captured again at launch")
        app.resolver.signal(.appReady)
        #expect(router.paths.isEmpty, "login of the dead process leaked")
        app.resolver.signal(.loggedIn)
        #expect(router.paths == ["/orders/1"])

        app.store.reset()
        #expect(try app.store.loadPending().pending.isEmpty)
        #expect(!app.store.wasConsumed(F.link("/orders/1", id: 1).identity), "reset keeps a consumed mark")
    }

    @Test func relaunchingInPlaceAllocatesNothingAfterWarmUp() {
        guard !Sanitizer.isActive else { return }
        #expect(AllocationCounter.isJemallocActive)
        let router = ResolverAllocationTests.CountingRouter()
        let app = SimulatedApp(
            router: router,
            observer: ResolverAllocationTests.CountingObserver(),
            configuration: LinkResolver.Configuration(policy: TestApp.policy, timeToLiveNanos: 1_000_000)
        )
        var order = F.link("/orders/1", id: 0)
        var nextID: UInt64 = 0
        var product = F.link("/product/1", id: 0)
        func process() {
            // A new install: a clip handoff found at launch (superseded by a newer one, so two
            // links load), then an order captured before login and routed after it.
            app.resolver.relaunch()
            app.store.reset()
            app.process.restart()
            nextID += 1
            product.id = nextID
            product.capturedAtNanos = 1
            try? app.store.save(product)
            nextID += 1
            product.id = nextID
            product.capturedAtNanos = 2
            try? app.store.save(product)
            _ = try? app.resolver.launch()
            nextID += 1
            order.id = nextID
            order.capturedAtNanos = 3
            app.resolver.signal(.appReady)
            app.resolver.capture(order)
            app.resolver.signal(.loggedIn)
        }
        for _ in 0..<16 { process() }
        let routesBefore = router.routes.load(ordering: .relaxed)
        let bytes = AllocationCounter.bytesAllocated {
            for _ in 0..<1_000 { process() }
        }
        #expect(router.routes.load(ordering: .relaxed) - routesBefore == 2_000)
        #expect(bytes == 0)
    }
}
