import DeepLinkCore
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The router's side of the contract: a link it is not ready for stays pending (in the resolver
/// and in the store) and is offered again at the next signal, on the thread that signals.
@Suite struct ResolverDeclineTests {
    typealias F = ResolverFixtures

    /// A router that is ready only after `becomeReady()`.
    final class LateScreen: Sendable {
        let isReady = Atomic<Bool>(false)
        func becomeReady() { isReady.store(true, ordering: .releasing) }
    }

    @Test func aDeclinedLinkWaitsForTheNextSignalThenRoutesOnce() throws {
        let screen = LateScreen()
        let router = RecordingRouter(ready: { _ in screen.isReady.load(ordering: .acquiring) })
        let observer = RecordingObserver()
        let app = SimulatedApp(router: router, observer: observer)
        let product = F.link("/product/42", id: 1)
        app.resolver.signal(.appReady)
        app.resolver.capture(product)
        #expect(router.declines == [product])
        #expect(router.routes.isEmpty)
        #expect(app.resolver.pendingCount == 1, "a declined link stays pending")
        #expect(try app.store.loadPending().pending == [product], "and stays in the store")
        #expect(!app.store.wasConsumed(product.identity), "its consumed mark is withdrawn")

        // Not offered again by time passing or by another capture: only a signal re-offers it.
        screen.becomeReady()
        app.resolver.tick()
        app.resolver.capture(product)
        #expect(router.routes.isEmpty)
        #expect(router.declines.count == 1)

        app.resolver.signal(.appReady)
        #expect(router.paths == ["/product/42"])
        app.resolver.signal(.loggedIn)
        #expect(router.paths == ["/product/42"], "routed once")
        #expect(app.store.wasConsumed(product.identity))
        #expect(
            observer.terminal == [.routeDeclined(product), .duplicate(product), .routed(product)],
            "declined, its copy refused while pending, then routed"
        )
    }

    @Test func aDeclinedLinkSurvivesAKill() throws {
        let router = RecordingRouter(ready: { _ in false })
        let observer = RecordingObserver()
        let app = SimulatedApp(router: router, observer: observer)
        let order = F.link("/orders/7", id: 3)
        app.resolver.signal(.appReady)
        app.resolver.signal(.loggedIn)
        app.resolver.capture(order)
        #expect(router.declines == [order])

        let nextRouter = RecordingRouter()
        let next = app.relaunch(router: nextRouter, observer: observer)
        next.resolver.signal(.appReady)
        next.resolver.signal(.loggedIn)
        #expect(nextRouter.paths == ["/orders/7"])
    }

    @Test func aNewerLinkSupersedesADeclinedOne() throws {
        let router = RecordingRouter(ready: { $0.id != 1 })
        let observer = RecordingObserver()
        let app = SimulatedApp(router: router, observer: observer)
        let older = F.link("/product/1", id: 1, at: 1)
        let newer = F.link("/product/2", id: 2, at: 2)
        app.resolver.signal(.appReady)
        app.resolver.capture(older)
        app.resolver.capture(newer)
        #expect(router.paths == ["/product/2"])
        #expect(observer.terminal == [.routeDeclined(older), .superseded(older, byID: 2), .routed(newer)])
        #expect(try app.store.loadPending().pending.isEmpty)
    }

    /// A copy handed in while the link is being offered (from inside the router) must not drop the
    /// record the decline restores.
    @Test func aCopyCapturedDuringTheOfferKeepsTheRestoredRecord() throws {
        let resolverBox = Locked<LinkResolver?>(nil)
        let product = F.link("/product/42", id: 1)
        let router = RecordingRouter(ready: { link in
            resolverBox.withLock { $0 }?.capture(link)
            return false
        })
        let observer = RecordingObserver()
        let app = SimulatedApp(router: router, observer: observer)
        resolverBox.withLock { $0 = app.resolver }
        app.resolver.signal(.appReady)
        app.resolver.capture(product)
        #expect(router.declines == [product])
        #expect(try app.store.loadPending().pending == [product])
        #expect(app.resolver.pendingCount == 1)
        #expect(app.resolver.queuedCount == 0)
    }

    /// The delivery context: the router runs on the thread that drains. A router that navigates
    /// on one thread only declines elsewhere, and the app's next signal from its own thread gets
    /// the link delivered there.
    @Test func aRouterBoundToOneThreadGetsTheLinkWhenThatThreadSignals() throws {
        let appThread = pthread_self()
        let routedOnAppThread = Atomic<Int>(0)
        let router = RecordingRouter(ready: { _ in
            let onAppThread = pthread_equal(pthread_self(), appThread) != 0
            if onAppThread { routedOnAppThread.add(1, ordering: .relaxed) }
            return onAppThread
        })
        let observer = RecordingObserver()
        let app = SimulatedApp(router: router, observer: observer)
        app.resolver.signal(.appReady)
        let product = F.link("/product/42", id: 1)
        // A capture source on another thread (the referrer callback) drains there: declined.
        let resolver = app.resolver
        let capture = Thread { resolver.capture(product) }
        capture.start()
        while !capture.isFinished { usleep(100) }
        #expect(router.declines == [product])
        #expect(router.routes.isEmpty)
        // The app, on its own thread, signals: the link is delivered here.
        app.resolver.signal(.appReady)
        #expect(router.paths == ["/product/42"])
        #expect(routedOnAppThread.load(ordering: .relaxed) == 1)
    }

    @Test func theMachineRestagesADeclinedRoute() {
        var machine = F.machine()
        let product = F.link("/product/1", id: 1)
        _ = machine.signal(.appReady, now: 0)
        #expect(machine.capture(product, now: 0, consumedBefore: false) == .route(product))
        #expect(machine.routeDeclined(product) == .none)
        #expect(machine.pendingCount == 1)
        #expect(machine.tick(now: 0) == .none, "not before a signal")
        #expect(
            machine.capture(product, now: 0, consumedBefore: false) == .ignoreDuplicate(product, discardRecord: false)
        )
        #expect(machine.signal(.loggedIn, now: 0) == .route(product))
        #expect(machine.pendingCount == 0)
    }

    @Test func fileStoreRestoresAConsumedLink() throws {
        let root = try HandoffTestDirectory()
        let store = try FileHandoffStore(directory: root.path)
        let referrer = F.link("/product/1", id: 9, source: .installReferrer, installBegin: 77)
        try store.save(referrer)
        #expect(try store.markConsumed(referrer))
        #expect(store.wasConsumed(referrer.identity))
        try store.restorePending(referrer)
        #expect(!store.wasConsumed(referrer.identity))
        #expect(!store.wasConsumed(F.link("/product/1", id: 10, source: .installReferrer, installBegin: 77).identity))
        #expect(try store.loadPending().pending == [referrer])
        #expect(try store.markConsumed(referrer))
        #expect(try store.loadPending().pending.isEmpty, "consumable again after a restore")
    }
}
