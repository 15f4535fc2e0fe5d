import DeepLinkCore
import Synchronization

/// A benchmark's handoff store: the in-memory store's work (a lock, fixed pending slots) with the
/// last 64 consumed marks kept in ``RecentMarks``, so that millions of routes can go through one
/// resolver without filling it. Marks are found by key, as a durable store finds them (the file
/// store asks the file system for a marker's name), not by scanning every mark. Not durable; for
/// measuring the resolver only.
///
/// Thread safety: all state is behind one lock; every member may be called from any thread.
final class RecyclingHandoffStore: HandoffStore {
    private struct Storage: ~Copyable {
        var pending: InlineArray<16, UInt64> = .init(repeating: 0)
        /// Bit `i` is set when `pending[i]` holds a pending id (so a save or a removal visits only
        /// the slots in use, usually one).
        var used: UInt16 = 0
        var marks = RecentMarks()

        /// Records `id` as pending in a free slot (`.full` when none is).
        mutating func savePending(_ id: UInt64) throws(HandoffStoreError) {
            let free = ~used
            guard free != 0 else { throw .full }
            let slot = free.trailingZeroBitCount
            pending[slot] = id
            used |= 1 << UInt16(slot)
        }

        /// Frees every slot holding `id`.
        mutating func removePending(_ id: UInt64) {
            var remaining = used
            while remaining != 0 {
                let slot = remaining.trailingZeroBitCount
                remaining &= remaining - 1
                if pending[slot] == id { used &= ~(1 << UInt16(slot)) }
            }
        }
    }

    private let storage = Mutex(Storage())

    func save(_ link: PendingLink) throws(HandoffStoreError) {
        let id = link.id
        try storage.withLock { (storage: inout Storage) throws(HandoffStoreError) in try storage.savePending(id) }
    }

    /// Both in one critical section, as the protocol asks of a store that can (the in-memory
    /// store does the same).
    func saveUnlessConsumed(_ link: PendingLink) throws(HandoffStoreError) -> Bool {
        let identity = link.identity
        let id = link.id
        return try storage.withLock { (storage: inout Storage) throws(HandoffStoreError) -> Bool in
            guard !storage.marks.containsSameCapture(as: identity) else { return false }
            try storage.savePending(id)
            return true
        }
    }

    func loadPending() throws(HandoffStoreError) -> HandoffLoad { HandoffLoad(pending: []) }

    /// The check and the mark in one critical section.
    func markConsumed(_ link: PendingLink) throws(HandoffStoreError) -> Bool {
        let identity = link.identity
        let id = link.id
        return storage.withLock { storage in
            let fresh = !storage.marks.containsSameCapture(as: identity)
            if fresh { storage.marks.insert(identity) }
            storage.removePending(id)
            return fresh
        }
    }

    func wasConsumed(_ identity: CaptureIdentity) -> Bool {
        storage.withLock { $0.marks.containsSameCapture(as: identity) }
    }

    func restorePending(_ link: PendingLink) throws(HandoffStoreError) {
        let identity = link.identity
        let id = link.id
        try storage.withLock { (storage: inout Storage) throws(HandoffStoreError) in
            storage.marks.remove(identity)
            try storage.savePending(id)
        }
    }

    func discard(_ link: PendingLink) throws(HandoffStoreError) {
        let id = link.id
        storage.withLock { storage in
            storage.removePending(id)
        }
    }
}
