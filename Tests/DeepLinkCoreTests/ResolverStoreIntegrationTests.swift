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
        func markConsumed(_ link: PendingLink) throws(HandoffStoreError) { try inner.markConsumed(link) }
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
