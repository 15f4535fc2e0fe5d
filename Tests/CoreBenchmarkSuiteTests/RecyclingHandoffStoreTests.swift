import DeepLinkCore
import Testing

@testable import CoreBenchmarkSuite

/// The benchmark store's pending slots: 16 of them, freed by a consumed mark or a discard, and
/// `.full` (never a lost or overwritten id) when all are taken.
@Suite struct RecyclingHandoffStoreTests {
    private func link(_ id: UInt64) -> PendingLink {
        PendingLink(link: DeepLink(validated: "/orders/\(id)")!, source: .appClip, capturedAtNanos: 0, id: id)
    }

    @Test func sixteenPendingFitAndTheSeventeenthIsFull() throws {
        let store = RecyclingHandoffStore()
        for id in 1...16 { try store.save(link(UInt64(id))) }
        #expect(throws: HandoffStoreError.full) { try store.save(link(17)) }
        // A consumed mark frees its slot, and only its own.
        #expect(try store.markConsumed(link(5)))
        try store.save(link(17))
        #expect(throws: HandoffStoreError.full) { try store.save(link(18)) }
        try store.discard(link(9))
        #expect(try store.saveUnlessConsumed(link(18)))
        #expect(throws: HandoffStoreError.full) { try store.save(link(19)) }
    }

    @Test func consumedMarksAreKeptAndRestoredOnes() throws {
        let store = RecyclingHandoffStore()
        #expect(try store.markConsumed(link(1)))
        #expect(store.wasConsumed(link(1).identity))
        #expect(try !store.saveUnlessConsumed(link(1)))
        try store.restorePending(link(1))
        #expect(!store.wasConsumed(link(1).identity))
        #expect(try store.saveUnlessConsumed(link(2)))
    }

    @Test func aSecondMarkOfTheSameCaptureIsRefusedAndFreesItsSlot() throws {
        let store = RecyclingHandoffStore()
        for id in 1...16 { try store.save(link(UInt64(id))) }
        #expect(try store.markConsumed(link(3)))
        try store.save(link(3))
        #expect(try !store.markConsumed(link(3)), "consumed before: not to be routed again")
        // Its pending record went all the same: one slot is free.
        try store.save(link(20))
        #expect(throws: HandoffStoreError.full) { try store.save(link(21)) }
    }
}
