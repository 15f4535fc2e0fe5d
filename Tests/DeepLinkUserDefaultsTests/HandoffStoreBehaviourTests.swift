import DeepLinkCore
import DeepLinkCoreTestSupport
import Testing

/// What every store that keeps links does, on each of them: the in-memory store's and the file
/// store's behaviour, which the UserDefaults store must share.
@Suite struct HandoffStoreBehaviourTests {
    @Test(arguments: StoreKind.allCases)
    func savesAndLoadsOldestFirstAndReplacesBySameID(kind: StoreKind) throws {
        let (store, cleanUp) = try kind.make()
        defer { cleanUp() }
        try store.save(pendingLink("/product/2", id: 2, at: 20))
        try store.save(pendingLink("/product/1", id: 1, at: 10))
        try store.save(pendingLink("/product/1b", id: 1, at: 10))
        let load = try store.loadPending()
        #expect(load.pending.map(\.id) == [1, 2])
        #expect(load.pending.first?.link.string == "/product/1b")
        #expect(load.skipped.isEmpty)
    }

    @Test(arguments: StoreKind.allCases)
    func loadingDoesNotRemove(kind: StoreKind) throws {
        let (store, cleanUp) = try kind.make()
        defer { cleanUp() }
        let link = pendingLink("/orders/7", id: 7, at: 1)
        try store.save(link)
        #expect(try store.loadPending().pending == [link])
        #expect(try store.loadPending().pending == [link], "a read is not a consume")
    }

    @Test(arguments: StoreKind.allCases)
    func markConsumedRemovesTheRecordAndRemembersIDAndTimestamp(kind: StoreKind) throws {
        let (store, cleanUp) = try kind.make()
        defer { cleanUp() }
        let referrer = pendingLink("/product/1", id: 1, source: .installReferrer, installBegin: 77)
        try store.save(referrer)
        #expect(!store.wasConsumed(referrer.identity))
        #expect(try store.markConsumed(referrer))
        #expect(try store.loadPending().pending.isEmpty)
        #expect(store.wasConsumed(referrer.identity))
        #expect(
            store.wasConsumed(pendingLink("/product/1", id: 9, source: .installReferrer, installBegin: 77).identity)
        )
        #expect(!store.wasConsumed(pendingLink("/product/1", id: 9, source: .appClip, installBegin: 77).identity))
        #expect(store.wasConsumed(pendingLink("/other", id: 1).identity))
    }

    @Test(arguments: StoreKind.allCases)
    func consumedRecordsAreNotLoadedEvenIfTheirRecordCameBack(kind: StoreKind) throws {
        let (store, cleanUp) = try kind.make()
        defer { cleanUp() }
        let link = pendingLink("/product/1", id: 1)
        #expect(try store.markConsumed(link))
        try store.save(link)
        #expect(try store.loadPending().pending.isEmpty)
    }

    @Test(arguments: StoreKind.allCases)
    func saveUnlessConsumedSkipsConsumedLinks(kind: StoreKind) throws {
        let (store, cleanUp) = try kind.make()
        defer { cleanUp() }
        let referrer = pendingLink("/product/1", id: 1, at: 1, source: .installReferrer, installBegin: 5)
        #expect(try store.saveUnlessConsumed(referrer))
        #expect(try store.markConsumed(referrer))
        let redelivered = pendingLink("/product/1", id: 2, at: 2, source: .installReferrer, installBegin: 5)
        #expect(try !store.saveUnlessConsumed(redelivered))
        #expect(try store.loadPending().pending.isEmpty, "nothing was saved for the re-delivery")
    }

    @Test(arguments: StoreKind.allCases)
    func discardDropsOnlyThatRecordAndIsNotConsuming(kind: StoreKind) throws {
        let (store, cleanUp) = try kind.make()
        defer { cleanUp() }
        try store.save(pendingLink("/a", id: 1))
        try store.save(pendingLink("/b", id: 2))
        try store.discard(pendingLink("/a", id: 1))
        try store.discard(pendingLink("/zzz", id: 3))
        #expect(try store.loadPending().pending.map(\.id) == [2])
        #expect(!store.wasConsumed(pendingLink("/a", id: 1).identity))
    }

    @Test(arguments: StoreKind.allCases)
    func restorePendingWithdrawsBothMarksAndKeepsTheLink(kind: StoreKind) throws {
        let (store, cleanUp) = try kind.make()
        defer { cleanUp() }
        let referrer = pendingLink("/orders/3", id: 3, at: 3, source: .installReferrer, installBegin: 41)
        let other = pendingLink("/product/4", id: 4, at: 4)
        try store.save(referrer)
        try store.save(other)
        #expect(try store.markConsumed(referrer))
        #expect(try store.markConsumed(other))
        try store.restorePending(referrer)
        #expect(!store.wasConsumed(referrer.identity))
        #expect(
            !store.wasConsumed(pendingLink("/orders/3", id: 30, source: .installReferrer, installBegin: 41).identity)
        )
        #expect(store.wasConsumed(other.identity), "only that link's marks are withdrawn")
        #expect(try store.loadPending().pending == [referrer])
        // Consumable again once restored.
        #expect(try store.markConsumed(referrer))
        #expect(store.wasConsumed(referrer.identity))
        #expect(try store.loadPending().pending.isEmpty)
    }
}
