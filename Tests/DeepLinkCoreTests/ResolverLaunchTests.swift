import DeepLinkCore
import Synchronization
import Testing

/// `launch()` admits everything the store kept as one step, so a gate opening while it runs (on
/// this thread through a callback, or on another one) routes only the newest stored link.
@Suite struct ResolverLaunchTests {
    typealias F = ResolverFixtures

    /// Opens the gate from inside the first waiting notice: the moment between two admissions when
    /// a launch that admitted links one at a time had reported the older link and not yet seen
    /// the newer one.
    final class GateOpeningObserver: ResolverObserver {
        let recorder = RecordingObserver()
        let resolver = Mutex<LinkResolver?>(nil)
        let opened = Atomic<Bool>(false)

        func resolverDecided(_ decision: ResolverDecision) {
            recorder.resolverDecided(decision)
            guard case .waitingForGate = decision,
                !opened.exchange(true, ordering: .acquiringAndReleasing)
            else { return }
            resolver.withLock { $0 }?.signal(.appReady)
        }
    }

    /// Two clip handoffs in the store (a second tap before install), the older saved first.
    static func storeWithTwoHandoffs() throws -> (InMemoryHandoffStore, older: PendingLink, newer: PendingLink) {
        let store = InMemoryHandoffStore()
        let older = F.link("/product/1", id: 1, at: 10)
        let newer = F.link("/product/2", id: 2, at: 20)
        try store.save(older)
        try store.save(newer)
        return (store, older, newer)
    }

    @Test func appReadyDuringLaunchRoutesOnlyTheNewestStoredLink() throws {
        let (store, older, newer) = try Self.storeWithTwoHandoffs()
        let router = RecordingRouter()
        let observer = GateOpeningObserver()
        let resolver = LinkResolver(
            configuration: TestApp.configuration,
            store: store,
            router: router,
            observer: observer,
            clock: ManualClock()
        )
        observer.resolver.withLock { $0 = resolver }

        #expect(try resolver.launch() == 2)

        let gateOpened = observer.opened.load(ordering: .acquiring)
        #expect(gateOpened, "the gate never opened during launch")
        #expect(router.paths == ["/product/2"])
        #expect(observer.recorder.terminal == [.superseded(older, byID: newer.id), .routed(newer)])
        #expect(try store.loadPending().pending.isEmpty)
    }

    @Test func launchAfterAppReadyRoutesOnlyTheNewestStoredLink() throws {
        let (store, older, newer) = try Self.storeWithTwoHandoffs()
        let router = RecordingRouter()
        let observer = RecordingObserver()
        let resolver = LinkResolver(
            configuration: TestApp.configuration,
            store: store,
            router: router,
            observer: observer,
            clock: ManualClock()
        )
        resolver.signal(.appReady)

        #expect(try resolver.launch() == 2)

        #expect(router.paths == ["/product/2"])
        #expect(observer.terminal == [.superseded(older, byID: newer.id), .routed(newer)])
    }

    @Test func launchLoadingMoreLinksThanTheAdmissionBudgetRoutesOnlyTheNewest() throws {
        // Default configuration: 4 pending slots, an admission budget of 8; the store holds 16.
        let store = InMemoryHandoffStore(capacity: 16)
        let links = (1...16).map { F.link("/product/\($0)", id: UInt64($0), at: UInt64($0) * 10) }
        for link in links { try store.save(link) }
        let router = RecordingRouter()
        let observer = RecordingObserver()
        let resolver = LinkResolver(
            configuration: TestApp.configuration,
            store: store,
            router: router,
            observer: observer,
            clock: ManualClock()
        )
        resolver.signal(.appReady)

        #expect(try resolver.launch() == 16)

        #expect(router.paths == ["/product/16"])
        let superseded = observer.terminal.filter {
            if case .superseded = $0 { return true }
            return false
        }
        #expect(superseded.count == 15)
        #expect(try store.loadPending().pending.isEmpty)
    }
}
