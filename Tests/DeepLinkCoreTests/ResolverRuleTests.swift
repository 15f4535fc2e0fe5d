import DeepLinkCore
import Synchronization
import Testing

/// One test per rule of the resolver, through the thread-safe front: a link routes exactly once,
/// never before its gate is open, the latest wins, expired and duplicate links are dropped, a
/// stored link survives a kill, and a kill between the consumed mark and the router loses only that
/// link.
@Suite struct ResolverRuleTests {
    typealias F = ResolverFixtures

    @Test func routesOnceTheAppIsReadyInEitherOrder() throws {
        for readyFirst in [false, true] {
            let router = RecordingRouter()
            let observer = RecordingObserver()
            let app = SimulatedApp(router: router, observer: observer)
            let product = F.link("/product/42", id: 1)
            if readyFirst { app.resolver.signal(.appReady) }
            app.resolver.capture(product)
            #expect(router.paths == (readyFirst ? ["/product/42"] : []))
            app.resolver.signal(.appReady)
            #expect(router.paths == ["/product/42"])
            #expect(observer.terminal == [.routed(product)])
            #expect(app.store.wasConsumed(product.identity))
            #expect(try app.store.loadPending().pending.isEmpty)
        }
    }

    @Test func neverEarlyLogoutClosesTheGateAgain() throws {
        let router = RecordingRouter()
        let observer = RecordingObserver()
        let app = SimulatedApp(router: router, observer: observer)
        let order = F.link("/orders/7", id: 1)
        app.resolver.signal(.appReady)
        app.resolver.signal(.loggedIn)
        app.resolver.signal(.loggedOut)
        app.resolver.capture(order)
        #expect(router.routes.isEmpty)
        #expect(observer.decisions == [.waitingForGate(order, missing: .loggedIn)])
        #expect(try app.store.loadPending().pending == [order])
        app.resolver.signal(.loggedIn)
        #expect(router.paths == ["/orders/7"])
        #expect(app.resolver.state == .ready(satisfied: [.appReady, .loggedIn]))
    }

    @Test func latestWinsOlderAreSupersededAndDropped() throws {
        let router = RecordingRouter()
        let observer = RecordingObserver()
        let app = SimulatedApp(router: router, observer: observer)
        let older = F.link("/product/1", id: 1, at: 10)
        let newer = F.link("/product/2", id: 2, at: 20)
        app.resolver.capture(older)
        app.resolver.capture(newer)
        app.resolver.signal(.appReady)
        #expect(router.paths == ["/product/2"])
        #expect(observer.terminal == [.superseded(older, byID: 2), .routed(newer)])
        #expect(try app.store.loadPending().pending.isEmpty)
        #expect(!app.store.wasConsumed(older.identity))
    }

    @Test func expiredLinksAreDroppedNeverRouted() throws {
        let clock = ManualClock(nanos: 0)
        let router = RecordingRouter()
        let observer = RecordingObserver()
        let app = SimulatedApp(router: router, observer: observer, clock: clock)
        let order = F.link("/orders/1", id: 1, at: 0)
        app.resolver.capture(order)
        app.resolver.signal(.appReady)
        clock.advance(by: 1_001)
        app.resolver.tick()
        app.resolver.signal(.loggedIn)
        #expect(router.routes.isEmpty)
        #expect(observer.terminal == [.expired(order, ageNanos: 1_001)])
        #expect(try app.store.loadPending().pending.isEmpty)
    }

    @Test func duplicateReferrerIsRoutedOncePerInstallAcrossRelaunch() throws {
        let router = RecordingRouter()
        let observer = RecordingObserver()
        var app = SimulatedApp(router: router, observer: observer)
        let referrer = F.link("/product/1", id: 1, source: .installReferrer, installBegin: 77)
        app.resolver.signal(.appReady)
        app.resolver.capture(referrer)
        let redelivered = F.link("/product/1", id: 2, source: .installReferrer, installBegin: 77)
        app.resolver.capture(redelivered)
        #expect(observer.terminal == [.routed(referrer), .duplicate(redelivered)])
        app = app.relaunch(router: router, observer: observer)
        app.resolver.signal(.appReady)
        let thirdLaunch = F.link("/product/1", id: 3, source: .installReferrer, installBegin: 77)
        app.resolver.capture(thirdLaunch)
        #expect(router.paths == ["/product/1"])
        #expect(observer.terminal.last == .duplicate(thirdLaunch))
        #expect(try app.store.loadPending().pending.isEmpty)
    }

    @Test func clipHandoffReadByTwoRacingLaunchesRoutesOnce() {
        let router = RecordingRouter()
        let observer = RecordingObserver()
        let app = SimulatedApp(router: router, observer: observer)
        let handoff = F.link("/product/5", id: 42)
        app.resolver.capture(handoff)
        app.resolver.capture(handoff)
        app.resolver.signal(.appReady)
        #expect(router.paths == ["/product/5"])
        #expect(observer.terminal == [.duplicate(handoff), .routed(handoff)])
    }

    @Test func durableLinkSurvivesAKillBeforeLogin() throws {
        let router = RecordingRouter()
        let observer = RecordingObserver()
        var app = SimulatedApp(router: router, observer: observer)
        let order = F.link("/orders/9", id: 9)
        app.resolver.capture(order)
        app.resolver.signal(.appReady)
        app = app.relaunch(router: router, observer: observer)
        #expect(router.routes.isEmpty)
        #expect(app.resolver.pendingCount == 1)
        app.resolver.signal(.appReady)
        app.resolver.signal(.loggedIn)
        #expect(router.paths == ["/orders/9"])
    }

    @Test func killInTheCrashWindowIsReportedAndNeverRoutedLater() throws {
        let router = RecordingRouter()
        let observer = RecordingObserver()
        var app = SimulatedApp(router: router, observer: observer)
        let product = F.link("/product/3", id: 3)
        app.store.armKill(at: KillPoint(.after, .markConsumed))
        app.resolver.capture(product)
        app.resolver.signal(.appReady)
        #expect(router.routes.isEmpty)
        #expect(observer.terminal.isEmpty)
        #expect(observer.crashWindows == [product])
        #expect(!app.process.isAlive)
        let image = app.store.simulateKill()
        #expect(image.killedInCrashWindow == product)
        app = app.relaunch(router: router, observer: observer)
        app.resolver.signal(.appReady)
        app.resolver.capture(product)
        #expect(router.routes.isEmpty)
        #expect(observer.terminal.last == .duplicate(product))
    }

    @Test func killJustBeforeTheConsumedMarkKeepsTheLink() throws {
        let router = RecordingRouter()
        let observer = RecordingObserver()
        var app = SimulatedApp(router: router, observer: observer)
        let product = F.link("/product/3", id: 3)
        app.store.armKill(at: KillPoint(.before, .markConsumed))
        app.resolver.capture(product)
        app.resolver.signal(.appReady)
        #expect(router.routes.isEmpty)
        #expect(observer.terminal.isEmpty)
        app = app.relaunch(router: router, observer: observer)
        app.resolver.signal(.appReady)
        #expect(router.paths == ["/product/3"])
    }

    @Test func failedConsumedMarkIsReportedAndTheLinkIsNotRouted() throws {
        let router = RecordingRouter()
        let observer = RecordingObserver()
        let store = InMemoryHandoffStore(capacity: 4, consumedCapacity: 1)
        let resolver = LinkResolver(
            configuration: TestApp.configuration,
            store: store,
            router: router,
            observer: observer,
            clock: ManualClock()
        )
        let first = F.link("/product/1", id: 1)
        let second = F.link("/product/2", id: 2)
        resolver.signal(.appReady)
        resolver.capture(first)
        resolver.capture(second)
        #expect(router.paths == ["/product/1"])
        #expect(observer.terminal.last == .storeFailed(second, operation: .markConsumed, error: .full))
        #expect(try store.loadPending().pending == [second])
    }

    @Test func routerMayCallBackIntoTheResolver() {
        let observer = RecordingObserver()
        let resolverBox = Mutex<LinkResolver?>(nil)
        let router = RecordingRouter { link in
            // Navigating to the login screen logs the user in; the resolver must not deadlock.
            if link.hasPathPrefix("/product/") {
                resolverBox.withLock { $0 }?.signal(.loggedIn)
                resolverBox.withLock { $0 }?.capture(ResolverFixtures.link("/orders/2", id: 2, at: 5))
            }
        }
        let resolver = LinkResolver(
            configuration: TestApp.configuration,
            store: InMemoryHandoffStore(),
            router: router,
            observer: observer,
            clock: ManualClock()
        )
        resolverBox.withLock { $0 = resolver }
        resolver.signal(.appReady)
        resolver.capture(F.link("/product/1", id: 1))
        #expect(router.paths == ["/product/1", "/orders/2"])
    }

    @Test func queueFullStillAdmitsOrReportsWithoutLosingTheLink() throws {
        let observer = RecordingObserver()
        let resolverBox = Mutex<LinkResolver?>(nil)
        // While the first link is being routed, the router captures more links than the queue holds.
        let router = RecordingRouter { link in
            guard link.hasPathPrefix("/product/") else { return }
            for id in 10..<30 {
                resolverBox.withLock { $0 }?.capture(
                    ResolverFixtures.link("/orders/\(id)", id: UInt64(id), at: UInt64(id))
                )
            }
        }
        let store = InMemoryHandoffStore(capacity: 32)
        let resolver = LinkResolver(
            configuration: LinkResolver.Configuration(
                policy: TestApp.policy,
                timeToLiveNanos: 1_000,
                pendingCapacity: 2,
                queueCapacity: 2
            ),
            store: store,
            router: router,
            observer: observer,
            clock: ManualClock()
        )
        resolverBox.withLock { $0 = resolver }
        resolver.signal(.appReady)
        resolver.capture(F.link("/product/1", id: 1))
        resolver.signal(.loggedIn)
        // Overload: each link ends exactly once (routed, superseded, or queueFull, which keeps it in
        // the store for the next launch), and exactly one order is routed after the product.
        #expect(router.paths.count == 2)
        #expect(router.paths.first == "/product/1")
        #expect(router.paths.last?.hasPrefix("/orders/") == true)
        var accounted: [UInt64] = []
        for decision in observer.terminal {
            switch decision {
            case .routed(let link), .superseded(let link, _), .queueFull(let link): accounted.append(link.id)
            default: break
            }
        }
        #expect(accounted.sorted() == [1] + (10..<30).map(UInt64.init))
        let deferred = observer.terminal.compactMap { decision -> UInt64? in
            if case .queueFull(let link) = decision { return link.id }
            return nil
        }
        #expect(!deferred.isEmpty)
        #expect(Set(try store.loadPending().pending.map(\.id)) == Set(deferred))
    }

    @Test func rejectedPayloadsAreReportedWithTheirReasonAndNeverRouted() throws {
        let router = RecordingRouter()
        let observer = RecordingObserver()
        let app = SimulatedApp(router: router, observer: observer)
        app.resolver.signal(.appReady)
        let validator = TestApp.validator
        let hostile = Array("javascript:alert(1)".utf8)
        let rejection = hostile.withUnsafeBytes {
            app.resolver.capture(payload: $0, validator: validator, source: .installReferrer, capturedAtNanos: 0, id: 1)
        }
        #expect(rejection == .disallowedScheme)
        let traversal = Array("/product/../admin".utf8)
        _ = traversal.withUnsafeBytes {
            app.resolver.capture(payload: $0, validator: validator, source: .appClip, capturedAtNanos: 0, id: 2)
        }
        app.resolver.captureRejected(.foreignHost, source: .universalLink)
        #expect(router.routes.isEmpty)
        #expect(
            observer.decisions == [
                .rejected(.disallowedScheme, source: .installReferrer),
                .rejected(.dotSegment, source: .appClip),
                .rejected(.foreignHost, source: .universalLink),
            ]
        )
        #expect(try app.store.loadPending().pending.isEmpty)
        // A valid payload through the same entry point is captured and routed.
        let valid = Array("/product/42".utf8)
        let accepted = valid.withUnsafeBytes {
            app.resolver.capture(payload: $0, validator: validator, source: .appClip, capturedAtNanos: 0, id: 3)
        }
        #expect(accepted == nil)
        #expect(router.paths == ["/product/42"])
    }

    @Test func aFullPendingSetReportsThePushedOutLinkWhole() throws {
        let router = RecordingRouter()
        let observer = RecordingObserver()
        let app = SimulatedApp(
            router: router,
            observer: observer,
            configuration: LinkResolver.Configuration(
                policy: TestApp.policy,
                timeToLiveNanos: 1_000,
                pendingCapacity: 2
            )
        )
        let first = F.link("/product/1?from=first", id: 1, at: 10)
        let second = F.link("/product/2", id: 2, at: 20)
        let third = F.link("/product/3?from=third", id: 3, at: 30)
        let stale = F.link("/product/0", id: 4, at: 5)
        for link in [first, second, third, stale] { app.resolver.capture(link) }
        // The oldest pending link is pushed out by the third; the stale fourth loses at once.
        #expect(observer.terminal == [.superseded(first, byID: 3), .superseded(stale, byID: 3)])
        app.resolver.signal(.appReady)
        #expect(router.paths == ["/product/3?from=third"])
        #expect(observer.terminal.suffix(2) == [.superseded(second, byID: 3), .routed(third)])
    }

    @Test func observersGetOnlyTheKindsTheyAskFor() {
        final class RoutedOnly: ResolverObserver {
            let recorded = Mutex<[ResolverDecision]>([])
            func resolverDecided(_ decision: ResolverDecision) { recorded.withLock { $0.append(decision) } }
            var interests: ResolverDecision.Kinds { [.routed, .rejected] }
        }
        let observer = RoutedOnly()
        let app = SimulatedApp(router: RecordingRouter(), observer: observer)
        let older = F.link("/product/1", id: 1, at: 10)
        let newer = F.link("/orders/2", id: 2, at: 20)
        app.resolver.capture(older)
        app.resolver.capture(newer)
        app.resolver.capture(newer)
        app.resolver.signal(.appReady)
        app.resolver.captureRejected(.dotSegment, source: .installReferrer)
        app.resolver.signal(.loggedIn)
        // Waiting notices, the duplicate and the supersede were decided but not built or reported.
        #expect(
            observer.recorded.withLock { $0 } == [.rejected(.dotSegment, source: .installReferrer), .routed(newer)]
        )
        #expect(IgnoringResolverObserver().interests.isEmpty)
        #expect(RecordingObserver().interests == .all)
    }

    @Test func everyDecisionHasItsOwnKind() {
        let link = F.link("/product/1", id: 1)
        let decisions: [ResolverDecision] = [
            .routed(link), .superseded(link, byID: 2), .expired(link, ageNanos: 1), .duplicate(link),
            .rejected(.empty, source: .appClip), .waitingForGate(link, missing: .loggedIn),
            .storeFailed(link, operation: .save, error: .full), .unreadableRecord(.full), .queueFull(link),
            .routeDeclined(link), .linklessReferrer(.organic, attribution: LinkAttribution()),
            .referrerRefused(.inputTooLong(length: 2, limit: 1)), .heldForAccount(link),
        ]
        let kinds = decisions.map(\.kind)
        #expect(Set(kinds.map(\.rawValue)).count == decisions.count)
        #expect(kinds.reduce(ResolverDecision.Kinds()) { $0.union($1) } == .all)
    }
}
