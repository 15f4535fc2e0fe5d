import DeepLinkCore
import DeepLinkCoreTestSupport
import DeepLinkUserDefaults
import Foundation
import Testing

@Suite struct UserDefaultsHandoffStoreTests {
    let prefix = UserDefaultsHandoffStore.defaultKeyPrefix

    @Test func pendingLinksAndConsumedMarksOutliveTheStoreThatWroteThem() throws {
        let suite = TestSuite()
        defer { suite.remove() }
        let clip = pendingLink("/product/1", id: 1, at: 1)
        let referrer = pendingLink("/orders/2", id: 2, at: 2, source: .installReferrer, installBegin: 900)
        do {
            let clipSide = try suite.store()
            try clipSide.save(clip)
            try clipSide.save(referrer)
            #expect(try clipSide.markConsumed(referrer))
        }
        let appSide = try suite.store()
        #expect(try appSide.loadPending().pending == [clip])
        #expect(try appSide.loadPending().pending == [clip], "never removed on read")
        #expect(
            appSide.wasConsumed(pendingLink("/orders/2", id: 3, source: .installReferrer, installBegin: 900).identity)
        )
    }

    @Test func recordsAreKeptUnderThePrefixedKeysOfTheirLayout() throws {
        let suite = TestSuite()
        defer { suite.remove() }
        let store = try suite.store()
        let referrer = pendingLink("/orders/2", id: 0xAB, source: .installReferrer, installBegin: 0x10)
        try store.save(referrer)
        #expect(suite.defaults.data(forKey: prefix + "pending.00000000000000ab") != nil)
        #expect(try store.markConsumed(referrer))
        #expect(suite.defaults.object(forKey: prefix + "pending.00000000000000ab") == nil)
        #expect(suite.defaults.data(forKey: prefix + "consumed-id.00000000000000ab") != nil)
        #expect(suite.defaults.data(forKey: prefix + "consumed-ibt.0000000000000010") != nil)
    }

    @Test func aSecondConsumeIsRefusedLikeTheFileStoresAndRemovesTheDuplicate() throws {
        let suite = TestSuite()
        defer { suite.remove() }
        let store = try suite.store()
        let clip = pendingLink("/product/1", id: 1, at: 1)
        let referrer = pendingLink("/product/2", id: 2, at: 2, source: .installReferrer, installBegin: 555)
        let redelivered = pendingLink("/product/2", id: 3, at: 3, source: .installReferrer, installBegin: 555)
        for link in [clip, referrer, redelivered] { try store.save(link) }
        #expect(try store.markConsumed(clip))
        #expect(try store.markConsumed(referrer))
        #expect(try store.loadPending().pending.isEmpty, "consumed by its install-begin timestamp: a duplicate")
        try store.save(redelivered)
        #expect(try !store.markConsumed(clip))
        #expect(try !store.markConsumed(redelivered))
        #expect(!store.wasConsumed(CaptureIdentity(id: redelivered.id, installBeginTimestamp: 0)), "no mark of its own")
        #expect(try store.loadPending().pending.isEmpty, "a refused consume removes the duplicate's record")
    }

    @Test func loadCompletesAConsumeInterruptedAfterItsMark() throws {
        let suite = TestSuite()
        defer { suite.remove() }
        let store = try suite.store()
        let clip = pendingLink("/product/1", id: 0xAB, at: 1)
        try store.save(clip)
        // The state a kill leaves between "mark written" and "pending record removed".
        let record = try #require(suite.defaults.data(forKey: prefix + "pending.00000000000000ab"))
        suite.defaults.set(record, forKey: prefix + "consumed-id.00000000000000ab")
        let load = try store.loadPending()
        #expect(load.pending.isEmpty)
        #expect(load.skipped.isEmpty)
        #expect(store.wasConsumed(clip.identity))
        #expect(suite.defaults.object(forKey: prefix + "pending.00000000000000ab") == nil, "the consume was completed")
    }

    @Test func badValuesAreReportedByKeyAndLeftWhileOthersLoad() throws {
        let suite = TestSuite()
        defer { suite.remove() }
        let store = try suite.store()
        let good = pendingLink("/product/1", id: 1, at: 1)
        try store.save(good)
        let record = try #require(suite.defaults.data(forKey: prefix + "pending.0000000000000001"))
        var flipped = record
        flipped[flipped.count - 1] ^= 0xFF
        let notData = prefix + "pending.0000000000000002"
        let corrupt = prefix + "pending.0000000000000003"
        let wrongID = prefix + "pending.0000000000000004"
        let badName = prefix + "pending.xyz"
        let truncated = prefix + "pending.0000000000000005"
        suite.defaults.set("/product/2", forKey: notData)
        suite.defaults.set(flipped, forKey: corrupt)
        suite.defaults.set(record, forKey: wrongID)
        suite.defaults.set(record, forKey: badName)
        suite.defaults.set(record.prefix(10), forKey: truncated)

        let load = try store.loadPending()
        #expect(load.pending == [good])
        #expect(
            Set(load.skipped)
                == [
                    .invalidRecord(name: notData), .corruptRecord(name: corrupt), .invalidRecord(name: wrongID),
                    .invalidRecord(name: badName), .truncatedRecord(name: truncated),
                ]
        )
        #expect(suite.defaults.object(forKey: corrupt) != nil, "evidence is left in place")
    }

    @Test func storesWithOtherPrefixesShareASuiteWithoutSeeingEachOther() throws {
        let suite = TestSuite()
        defer { suite.remove() }
        let first = try suite.store(keyPrefix: "first.")
        let second = try suite.store(keyPrefix: "second.")
        suite.defaults.set("the app's own setting", forKey: "theme")
        let link = pendingLink("/product/1", id: 1)
        try first.save(link)
        #expect(try first.markConsumed(pendingLink("/product/2", id: 2)))
        #expect(try second.loadPending().pending.isEmpty)
        #expect(!second.wasConsumed(pendingLink("/product/2", id: 2).identity))
        #expect(try first.loadPending().pending == [link])
        #expect(try first.loadPending().skipped.isEmpty, "other keys of the suite are not records")
    }

    @Test func anEmptyKeyPrefixIsANamedError() throws {
        #expect(throws: UserDefaultsHandoffStoreError.emptyKeyPrefix) {
            try UserDefaultsHandoffStore(suiteName: "DeepLinkUserDefaultsTests.unused", keyPrefix: "")
        }
        #expect("\(UserDefaultsHandoffStoreError.emptyKeyPrefix)".contains("DeepLinkHandoff."))
        #expect("\(UserDefaultsHandoffStoreError.unusableSuite("x"))".contains("App Group identifier"))
    }
}
