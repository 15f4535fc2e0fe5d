import DeepLinkCore
import Foundation
import Testing

/// The resolver against stores other than the in-memory one: the file-backed App Group stand-in,
/// and a store whose launch finds unreadable records.
@Suite struct ResolverStoreIntegrationTests {
    typealias F = ResolverFixtures

    /// A store that has one readable link and one unreadable record at launch.
    final class DamagedStore: HandoffStore {
        let inner = InMemoryHandoffStore()
        func save(_ link: PendingLink) throws(HandoffStoreError) { try inner.save(link) }
        func loadPending() throws(HandoffStoreError) -> HandoffLoad {
            var load = try inner.loadPending()
            load.skipped = [.corruptRecord(name: "7.handoff")]
            return load
        }
        func markConsumed(_ link: PendingLink) throws(HandoffStoreError) -> Bool { try inner.markConsumed(link) }
        func wasConsumed(_ identity: CaptureIdentity) -> Bool { inner.wasConsumed(identity) }
        func discard(_ link: PendingLink) throws(HandoffStoreError) { try inner.discard(link) }
        func restorePending(_ link: PendingLink) throws(HandoffStoreError) { try inner.restorePending(link) }
    }

    @Test func unreadableRecordsAreReportedAndTheRestIsCaptured() throws {
        let store = DamagedStore()
        let product = F.link("/product/1", id: 1)
        try store.save(product)
        let router = RecordingRouter()
        let observer = RecordingObserver()
        let resolver = LinkResolver(
            configuration: TestApp.configuration,
            store: store,
            router: router,
            observer: observer,
            clock: ManualClock()
        )
        #expect(try resolver.launch() == 1)
        resolver.signal(.appReady)
        #expect(router.paths == ["/product/1"])
        #expect(observer.terminal == [.unreadableRecord(.corruptRecord(name: "7.handoff")), .routed(product)])
    }

    /// Two live processes (the App Clip and the app) share the container and both hold the same
    /// handoff, waiting for a login: the consumed mark is checked and written in one store call, so
    /// only the first to route it routes it, and the other hears of a duplicate. (With the check
    /// made when the link was staged and the mark written later, both would route.)
    @Test(arguments: [false, true])
    func twoProcessesHoldingOneHandoffRouteItOnce(fileStore: Bool) throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("resolver-two-processes-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let shared: any HandoffStore = fileStore ? try FileHandoffStore(directory: directory) : InMemoryHandoffStore()
        let handoff = F.link("/orders/7", id: 7)
        try shared.save(handoff)
        let routers = [RecordingRouter(), RecordingRouter()]
        let observers = [RecordingObserver(), RecordingObserver()]
        let processes = (0..<2).map { index in
            LinkResolver(
                configuration: TestApp.configuration,
                store: shared,
                router: routers[index],
                observer: observers[index],
                clock: ManualClock()
            )
        }
        for process in processes {
            #expect(try process.launch() == 1)
            process.signal(.appReady)
        }
        processes[1].signal(.loggedIn)
        processes[0].signal(.loggedIn)
        #expect(routers.map(\.paths) == [[], ["/orders/7"]])
        #expect(observers[0].terminal == [.duplicate(handoff)])
        #expect(observers[1].terminal == [.routed(handoff)])
        #expect(try shared.loadPending().pending.isEmpty)
    }

    @Test func fileStoreKeepsTheLinkAcrossARelaunchAndRefusesTheRedelivery() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("resolver-file-store-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let router = RecordingRouter()
        let observer = RecordingObserver()
        let referrer = F.link("/orders/4", id: 4, source: .installReferrer, installBegin: 99)

        // First process: captured and ready, but the user never logs in before the kill.
        let first = LinkResolver(
            configuration: TestApp.configuration,
            store: try FileHandoffStore(directory: directory),
            router: router,
            observer: observer,
            clock: ManualClock()
        )
        first.signal(.appReady)
        first.capture(referrer)
        first.simulateKill()

        // Second process, same directory: the link is still there and routes after login.
        let second = LinkResolver(
            configuration: TestApp.configuration,
            store: try FileHandoffStore(directory: directory),
            router: router,
            observer: observer,
            clock: ManualClock()
        )
        #expect(try second.launch() == 1)
        second.signal(.appReady)
        second.signal(.loggedIn)
        #expect(router.paths == ["/orders/4"])

        // Third process: Play re-delivers the same referrer; it is a duplicate.
        let third = LinkResolver(
            configuration: TestApp.configuration,
            store: try FileHandoffStore(directory: directory),
            router: router,
            observer: observer,
            clock: ManualClock()
        )
        #expect(try third.launch() == 0)
        third.signal(.appReady)
        third.signal(.loggedIn)
        let redelivery = F.link("/orders/4", id: 5, source: .installReferrer, installBegin: 99)
        third.capture(redelivery)
        #expect(router.paths == ["/orders/4"])
        #expect(observer.terminal.last == .duplicate(redelivery))
    }
}
