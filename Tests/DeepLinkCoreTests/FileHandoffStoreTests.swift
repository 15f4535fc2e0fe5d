import DeepLinkCore
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A fresh directory under the system's temporary directory, removed by ``remove()``.
struct HandoffTestDirectory {
    let path: String

    init() throws {
        var template = Array((NSTemporaryDirectory() + "/handoff-store-XXXXXX").utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        self.path = try #require(created.map { String(cString: $0) })
    }

    func file(_ name: String) -> String { path + "/" + name }

    func names() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: path).sorted() }

    func write(_ bytes: [UInt8], to name: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: file(name)))
    }

    func read(_ name: String) throws -> [UInt8] { try Array(Data(contentsOf: URL(fileURLWithPath: file(name)))) }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

@Suite struct FileHandoffStoreTests {
    func link(
        _ path: String,
        id: UInt64,
        at nanos: UInt64,
        source: LinkSource = .appClip,
        installBegin: UInt64 = 0
    ) throws -> PendingLink {
        PendingLink(
            link: try #require(DeepLink(validated: path)),
            source: source,
            capturedAtNanos: nanos,
            id: id,
            installBeginTimestamp: installBegin
        )
    }

    func pendingName(_ id: UInt64) -> String {
        let digits = String(id, radix: 16)
        return "pending-" + String(repeating: "0", count: 16 - digits.count) + digits + ".rec"
    }

    /// FNV-1a 64, written independently of the store, to craft records with valid checksums.
    func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
    }

    /// `record` with its checksum recomputed after an edit.
    func resealed(_ record: [UInt8]) -> [UInt8] {
        var record = record
        let sum = checksum(record[4..<12] + record[20...])
        for index in 0..<8 { record[12 + index] = UInt8(truncatingIfNeeded: sum >> (8 * UInt64(index))) }
        return record
    }

    @Test func roundTripKeepsEveryFieldAndOrdersByCaptureTime() throws {
        let directory = try HandoffTestDirectory()
        defer { directory.remove() }
        let store = try FileHandoffStore(directory: directory.path)
        let links = [
            try link("/product/42?ref=share", id: 7, at: 3_000, source: .installReferrer, installBegin: 1_700_000_000),
            try link("/orders/9", id: 1, at: 1_000, source: .appClip),
            try link("/" + String(repeating: "a", count: DeepLink.capacity - 1), id: .max, at: 2_000),
            try link("/caf\u{E9}?q=\u{1F600}", id: 0, at: 2_000, source: .universalLink),
        ]
        for pending in links { try store.save(pending) }
        let reopened = try FileHandoffStore(directory: directory.path)
        let load = try reopened.loadPending()
        #expect(load.skipped.isEmpty)
        #expect(load.pending == [links[1], links[3], links[2], links[0]])

        // Saving the same id again replaces the record.
        let replacement = try link("/product/43", id: 7, at: 4_000)
        try store.save(replacement)
        #expect(try store.loadPending().pending == [links[1], links[3], links[2], replacement])
        #expect(try directory.names().allSatisfy { !$0.hasPrefix(".tmp") }, "no temporary file is left behind")
    }

    @Test func markConsumedWasConsumedAndDiscard() throws {
        let directory = try HandoffTestDirectory()
        defer { directory.remove() }
        let store = try FileHandoffStore(directory: directory.path)
        let clip = try link("/product/1", id: 1, at: 1)
        let referrer = try link("/product/2", id: 2, at: 2, source: .installReferrer, installBegin: 555)
        let redelivered = try link("/product/2", id: 3, at: 3, source: .installReferrer, installBegin: 555)
        let otherClip = try link("/product/4", id: 4, at: 4)
        for pending in [clip, referrer, redelivered, otherClip] { try store.save(pending) }
        #expect(!store.wasConsumed(clip.identity))

        #expect(try store.markConsumed(clip))
        #expect(try store.markConsumed(referrer))
        #expect(store.wasConsumed(clip.identity))
        #expect(store.wasConsumed(referrer.identity))
        #expect(store.wasConsumed(redelivered.identity), "same install-begin timestamp: a duplicate")
        #expect(!store.wasConsumed(otherClip.identity), "a zero timestamp identifies nothing")
        // A record consumed by its install-begin timestamp is a duplicate: the load removes it.
        #expect(try store.loadPending().pending == [otherClip])
        try store.save(redelivered)

        // Exclusive consume: a second consumer (another launch) is told so and must not route; its
        // record goes, and no mark of its own is written.
        #expect(try !store.markConsumed(clip))
        #expect(try !store.markConsumed(redelivered))
        #expect(!store.wasConsumed(CaptureIdentity(id: redelivered.id, installBeginTimestamp: 0)))
        #expect(try store.loadPending().pending == [otherClip], "a refused consume removes the duplicate's record")

        try store.discard(redelivered)
        try store.discard(otherClip)
        try store.discard(otherClip)  // already gone: fine
        #expect(!store.wasConsumed(otherClip.identity), "discarding is not consuming")
        #expect(try store.loadPending().pending.isEmpty)

        // Consumed marks survive reopening, so a re-saved consumed handoff never comes back.
        let reopened = try FileHandoffStore(directory: directory.path)
        #expect(reopened.wasConsumed(clip.identity))
        try reopened.save(clip)
        #expect(try reopened.loadPending().pending.isEmpty)
    }

    @Test func loadCompletesAConsumeInterruptedAfterItsMarker() throws {
        let directory = try HandoffTestDirectory()
        defer { directory.remove() }
        let store = try FileHandoffStore(directory: directory.path)
        let clip = try link("/product/1", id: 0xAB, at: 1)
        try store.save(clip)
        // The state a kill leaves between "marker written" and "pending record removed".
        try directory.write(directory.read(pendingName(0xAB)), to: "consumed-id-00000000000000ab.rec")
        #expect(try directory.names().contains(pendingName(0xAB)))
        let load = try store.loadPending()
        #expect(load.pending.isEmpty)
        #expect(load.skipped.isEmpty)
        #expect(store.wasConsumed(clip.identity))
        #expect(try !directory.names().contains(pendingName(0xAB)), "the interrupted consume was completed")
    }

    @Test func badRecordsAreReportedAndSkippedWhileOthersLoad() throws {
        let directory = try HandoffTestDirectory()
        defer { directory.remove() }
        let store = try FileHandoffStore(directory: directory.path)
        let good = [try link("/product/1", id: 1, at: 1), try link("/orders/2?x=y", id: 2, at: 2)]
        for pending in good { try store.save(pending) }
        let record = FileHandoffRecord.encode(try link("/product/100", id: 100, at: 100))

        var expected: [HandoffStoreError] = []
        func plant(_ bytes: [UInt8], id: UInt64, _ error: (String) -> HandoffStoreError) throws {
            try directory.write(bytes, to: pendingName(id))
            expected.append(error(pendingName(id)))
        }
        var flipped = record
        flipped[record.count - 3] ^= 0x01
        try plant(flipped, id: 100) { .corruptRecord(name: $0) }
        var badMagic = record
        badMagic[0] = UInt8(ascii: "X")
        try plant(badMagic, id: 101) { .corruptRecord(name: $0) }
        try plant(record + [0], id: 102) { .corruptRecord(name: $0) }
        try plant(Array(record[0..<(record.count - 5)]), id: 103) { .truncatedRecord(name: $0) }
        try plant(Array(record[0..<10]), id: 104) { .truncatedRecord(name: $0) }
        try plant([], id: 105) { .truncatedRecord(name: $0) }
        try plant(record + [UInt8](repeating: 0x41, count: 4_000), id: 106) { .oversizedRecord(name: $0) }
        var hugeLength = record
        hugeLength[10] = 0xFF
        try plant(hugeLength, id: 107) { .oversizedRecord(name: $0) }
        var version4 = record
        version4[4] = 4
        try plant(resealed(version4), id: 108) { .unknownVersion(name: $0, version: 4) }
        var version7 = record
        version7[5] = 7
        try plant(version7, id: 109) {
            .unknownVersion(name: $0, version: 0x700 + Int(FileHandoffRecord.currentVersion))
        }
        // Valid checksums, invalid contents.
        var evil = record
        evil.replaceSubrange(47..<49, with: Array("//".utf8))
        try plant(resealed(evil), id: 110) { .invalidRecord(name: $0) }
        var badSource = record
        badSource[44] = 9
        try plant(resealed(badSource), id: 111) { .invalidRecord(name: $0) }
        try plant(record, id: 112) { .invalidRecord(name: $0) }  // holds id 100, not 112
        var badLinkLength = record
        badLinkLength[45] &+= 1
        try plant(resealed(badLinkLength), id: 113) { .invalidRecord(name: $0) }
        var dotSegment = FileHandoffRecord.encode(try link("/product/aa", id: 114, at: 114))
        dotSegment.replaceSubrange(56..<58, with: Array("..".utf8))
        try plant(resealed(dotSegment), id: 114) { .invalidRecord(name: $0) }
        try directory.write(record, to: "pending-zz.rec")
        expected.append(.invalidRecord(name: "pending-zz.rec"))

        let load = try store.loadPending()
        #expect(load.pending == good)
        #expect(Set(load.skipped) == Set(expected))
        #expect(load.skipped.count == expected.count)
        #expect(try directory.names().count == good.count + expected.count, "bad records are kept, not deleted")
    }

    @Test func abandonedTemporaryFilesAreIgnoredThenRemoved() throws {
        let directory = try HandoffTestDirectory()
        defer { directory.remove() }
        let record = FileHandoffRecord.encode(try link("/product/1", id: 1, at: 1))
        // Whatever the pid in the name says, only the lock counts: the file this test holds an
        // flock on is a write in progress (of a process the store could not even signal).
        let inProgress = ".tmp.1.0.pending-0000000000000003.rec"
        let names = [
            ".tmp.\(Int32.max).0.pending-0000000000000001.rec", ".tmp.\(getpid()).3.pending-0000000000000002.rec",
            inProgress, ".tmp.garbage",
        ]
        for name in names { try directory.write(Array(record.prefix(30)), to: name) }
        let writer = open(directory.file(inProgress), O_RDONLY)
        try #require(writer >= 0)
        defer { close(writer) }
        try #require(flock(writer, LOCK_EX | LOCK_NB) == 0)
        let store = try FileHandoffStore(directory: directory.path)
        #expect(try directory.names() == [inProgress])
        let load = try store.loadPending()
        #expect(load.pending.isEmpty)
        #expect(load.skipped.isEmpty, "temporary files are not records")
    }

    @Test func unusableDirectoryIsANamedError() throws {
        let directory = try HandoffTestDirectory()
        defer { directory.remove() }
        try directory.write([1], to: "plain-file")
        #expect(throws: HandoffStoreError.io(operation: "mkdir", errno: ENOTDIR)) {
            try FileHandoffStore(directory: directory.file("plain-file") + "/store")
        }
        #expect(throws: HandoffStoreError.self) { try FileHandoffStore(directory: directory.file("plain-file")) }
    }

    @Test func layoutConstants() {
        #expect(
            FileHandoffRecord.maximumByteCount
                == 20 + 27 + DeepLink.capacity + 1 + AccountID.capacity + 15 + LinkAttribution.capacity
        )
        #expect(FileHandoffRecord.currentVersion == 3)
    }
}
