import DeepLinkCore
import Testing

@testable import CoreBenchmarkSuite

@Suite struct ResolverComparisonTests {
    private func link(_ id: UInt64) -> PendingLink {
        PendingLink(link: DeepLink(validated: "/orders/\(id)")!, source: .appClip, capturedAtNanos: 0, id: id)
    }

    /// The fair peer does the store's part of exactly-once: a capture it saw consumed, or one
    /// whose consumed mark is already there, is not routed again.
    @Test func theFairPeerRoutesACaptureOnceThroughTheStore() {
        let router = CountingRouter()
        let store = RecyclingHandoffStore()
        let peer = StoredDeepLinkQueue(store: store, router: router)
        peer.enqueue(link(1))
        peer.onEvent(loggedIn: true)
        #expect(router.routed == 1)
        #expect(store.wasConsumed(link(1).identity), "marked before the route")
        peer.enqueue(link(1))
        #expect(router.routed == 1, "a re-delivery of a routed capture")
        peer.onEvent(loggedIn: false)
        peer.enqueue(link(2))
        _ = try? store.markConsumed(link(2))
        peer.onEvent(loggedIn: true)
        #expect(router.routed == 1, "consumed elsewhere while it waited")
    }

    /// `resolver-route` is the fair pair; the bare snippet has a row of its own, named as not like
    /// for like, with the same subject.
    @Test func theBareSnippetHasItsOwnRowLabelledNotLikeForLike() throws {
        let comparisons = CoreBenchmarkSuite.comparisons(corpusSize: 20)
        let fair = try #require(comparisons.first { $0.benchmark == "resolver-route" })
        let bare = try #require(comparisons.first { $0.benchmark == "resolver-route-bare" })
        #expect(fair.peer.name == "snippet + store")
        #expect(bare.peer.name.contains("not like for like"))
        #expect(fair.subject.name == bare.subject.name)
        for comparison in [fair, bare] {
            _ = comparison.subject.run(100)
            _ = comparison.peer.run(100)
        }
    }
}
