import DeepLinkCore
import DeepLinkCoreTestSupport
import Testing

@Suite struct InMemoryHandoffStoreTests {
    typealias F = ResolverFixtures

    @Test func savesAndLoadsOldestFirstAndReplacesBySameID() throws {
        let store = InMemoryHandoffStore(capacity: 4)
        try store.save(F.link("/product/2", id: 2, at: 20))
        try store.save(F.link("/product/1", id: 1, at: 10))
        try store.save(F.link("/product/1b", id: 1, at: 10))
        let load = try store.loadPending()
        #expect(load.pending.map(\.id) == [1, 2])
        #expect(load.pending.first?.link.string == "/product/1b")
        #expect(load.skipped.isEmpty)
    }

    @Test func markConsumedRemovesTheRecordAndRemembersIDAndTimestamp() throws {
        let store = InMemoryHandoffStore(capacity: 4)
        let referrer = F.link("/product/1", id: 1, source: .installReferrer, installBegin: 77)
        try store.save(referrer)
        #expect(!store.wasConsumed(referrer.identity))
        #expect(try store.markConsumed(referrer))
        #expect(try store.loadPending().pending.isEmpty)
        #expect(store.wasConsumed(referrer.identity))
        #expect(store.wasConsumed(F.link("/product/1", id: 9, source: .installReferrer, installBegin: 77).identity))
        #expect(!store.wasConsumed(F.link("/product/1", id: 9, source: .appClip, installBegin: 77).identity))
        #expect(store.wasConsumed(F.link("/other", id: 1).identity))
    }

    @Test func consumedRecordsAreNotLoadedEvenIfTheirRecordCameBack() throws {
        let store = InMemoryHandoffStore(capacity: 4)
        let link = F.link("/product/1", id: 1)
        #expect(try store.markConsumed(link))
        try store.save(link)
        #expect(try store.loadPending().pending.isEmpty)
    }

    @Test func discardDropsOnlyThatRecord() throws {
        let store = InMemoryHandoffStore(capacity: 4)
        try store.save(F.link("/a", id: 1))
        try store.save(F.link("/b", id: 2))
        try store.discard(F.link("/a", id: 1))
        try store.discard(F.link("/zzz", id: 3))
        #expect(try store.loadPending().pending.map(\.id) == [2])
    }

    @Test func fullStoreAnswersFull() throws {
        let store = InMemoryHandoffStore(capacity: 1, consumedCapacity: 1)
        try store.save(F.link("/a", id: 1))
        #expect(throws: HandoffStoreError.full) { try store.save(F.link("/b", id: 2)) }
        #expect(try store.markConsumed(F.link("/a", id: 1)))
        #expect(throws: HandoffStoreError.full) { try store.markConsumed(F.link("/b", id: 2)) }
        // Marking the same link again is refused, and needs no new room.
        #expect(try !store.markConsumed(F.link("/a", id: 1)))
    }

    @Test(arguments: KillPoint.Timing.allCases)
    func killAroundSavePersistsExactlyWhatHappenedBefore(timing: KillPoint.Timing) throws {
        let store = InMemoryHandoffStore(capacity: 4)
        store.armKill(at: KillPoint(timing, .save, occurrence: 2))
        try store.save(F.link("/a", id: 1))
        #expect(store.process.isAlive)
        try store.save(F.link("/b", id: 2))
        #expect(!store.process.isAlive)
        // A dead process persists nothing more.
        try store.save(F.link("/c", id: 3))
        let image = store.simulateKill()
        #expect(image.pending.map(\.id) == (timing == .before ? [1] : [1, 2]))
        #expect(image.killedInCrashWindow == nil)
        let relaunched = InMemoryHandoffStore(relaunchingFrom: image)
        #expect(relaunched.process.isAlive)
        #expect(try relaunched.loadPending().pending == image.pending)
    }

    @Test func killAfterMarkConsumedIsTheCrashWindow() throws {
        let process = SimulatedProcess()
        let store = InMemoryHandoffStore(capacity: 4, process: process)
        let link = F.link("/orders/1", id: 1)
        try store.save(link)
        store.armKill(at: KillPoint(.after, .markConsumed))
        #expect(try store.markConsumed(link))
        #expect(!process.isAlive)
        let image = store.simulateKill()
        #expect(image.killedInCrashWindow == link)
        #expect(image.pending.isEmpty)
        #expect(image.consumed == [CaptureIdentity(id: 1, installBeginTimestamp: 0)])
        let relaunched = InMemoryHandoffStore(relaunchingFrom: image)
        #expect(relaunched.wasConsumed(link.identity))
    }

    @Test func relaunchKillsAndCarriesOverWhatSurvived() throws {
        let store = InMemoryHandoffStore(capacity: 4, consumedCapacity: 8)
        let pending = F.link("/orders/1", id: 1)
        let routed = F.link("/product/2", id: 2)
        try store.save(pending)
        try store.save(routed)
        #expect(try store.markConsumed(routed))
        let next = store.relaunch()
        #expect(!store.process.isAlive)
        #expect(next.process.isAlive)
        #expect(next.capacity == 4)
        #expect(next.consumedCapacity == 8)
        #expect(try next.loadPending().pending == [pending])
        #expect(next.wasConsumed(routed.identity))
        // The dead store no longer persists anything.
        try store.save(F.link("/late", id: 3))
        #expect(store.currentImage().pending == [pending])
    }

    @Test func killBeforeMarkConsumedKeepsTheLinkPending() throws {
        let store = InMemoryHandoffStore(capacity: 4)
        let link = F.link("/orders/1", id: 1)
        try store.save(link)
        store.armKill(at: KillPoint(.before, .markConsumed))
        #expect(try !store.markConsumed(link), "killed before the mark: nothing written, nothing to route")
        let image = store.simulateKill()
        #expect(image.pending == [link])
        #expect(image.consumed.isEmpty)
        #expect(image.killedInCrashWindow == nil)
    }

    @Test func storeOperationsAllocateNothingAfterCreation() throws {
        guard !Sanitizer.isActive else { return }
        #expect(AllocationCounter.isJemallocActive)
        let store = InMemoryHandoffStore(capacity: 8, consumedCapacity: 2_048)
        var link = F.link("/product/1", id: 0)
        func cycle() throws(HandoffStoreError) {
            link.id += 1
            try store.save(link)
            _ = store.wasConsumed(link.identity)
            _ = try store.markConsumed(link)
            try store.save(link)
            try store.discard(link)
        }
        try cycle()
        let bytes = try AllocationCounter.bytesAllocated { () throws(HandoffStoreError) in
            for _ in 0..<1_000 { try cycle() }
        }
        #expect(bytes == 0)
    }

    @Test func saveUnlessConsumedSkipsConsumedLinksAndMatchesTheDefault() throws {
        /// The protocol's default (two calls) over the same store type, for comparison.
        struct TwoStep: HandoffStore {
            let store: InMemoryHandoffStore
            func save(_ link: PendingLink) throws(HandoffStoreError) { try store.save(link) }
            func loadPending() throws(HandoffStoreError) -> HandoffLoad { try store.loadPending() }
            func markConsumed(_ link: PendingLink) throws(HandoffStoreError) -> Bool { try store.markConsumed(link) }
            func wasConsumed(_ identity: CaptureIdentity) -> Bool { store.wasConsumed(identity) }
            func discard(_ link: PendingLink) throws(HandoffStoreError) { try store.discard(link) }
            func restorePending(_ link: PendingLink) throws(HandoffStoreError) { try store.restorePending(link) }
        }
        let referrer = F.link("/product/1", id: 1, source: .installReferrer, installBegin: 77)
        let redelivery = F.link("/product/1", id: 2, source: .installReferrer, installBegin: 77)
        let other = F.link("/product/2", id: 3)
        let stores: [any HandoffStore] = [InMemoryHandoffStore(), TwoStep(store: InMemoryHandoffStore())]
        for store in stores {
            #expect(try store.saveUnlessConsumed(referrer))
            #expect(try store.markConsumed(referrer))
            #expect(try !store.saveUnlessConsumed(referrer))
            #expect(try !store.saveUnlessConsumed(redelivery), "same install-begin timestamp")
            #expect(try store.saveUnlessConsumed(other))
            #expect(try store.loadPending().pending == [other])
        }
    }
}
