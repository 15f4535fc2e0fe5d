import Synchronization

/// A fixed-capacity ``HandoffStore`` in memory: for tests, previews and an app that does not need
/// links to survive the process (nothing here outlives it; use ``FileHandoffStore`` in the App
/// Group container for that).
///
/// Every operation is atomic. (The harness drives it through a crash model, package-internal:
/// every operation is then immediately "durable", and what the store holds when its simulated
/// process is killed is exactly what a relaunch finds.)
///
/// Thread safety: all state is behind one lock; every member may be called from any thread.
///
/// - Complexity: `save`, `markConsumed`, `discard` and `wasConsumed` are O(capacity) and allocate
///   nothing (slots are preallocated); `loadPending` allocates.
package final class InMemoryHandoffStore: HandoffStore {
    struct Storage: ~Copyable {
        /// The records; slot `i` is live exactly when `recordIDs[i]` is non-nil (a free slot holds
        /// stale or placeholder bytes: clearing a record, or even testing a record-sized optional,
        /// copies it).
        var records: [PendingLink]
        /// The id of the record in each slot, nil for a free slot: what lookups scan.
        var recordIDs: [UInt64?]
        var recordCount = 0
        var consumed: [CaptureIdentity]
        var consumedCount = 0
        var killPoint: KillPoint?
        var saves = 0
        var consumedMarks = 0
        var restores = 0
        var discards = 0
        var currentOccurrence = 0

        /// Counts one more `operation` and returns its occurrence number (1 = first).
        mutating func countOccurrence(of operation: HandoffOperation) -> Int {
            switch operation {
            case .save:
                saves += 1
                return saves
            case .markConsumed:
                consumedMarks += 1
                return consumedMarks
            case .restorePending:
                restores += 1
                return restores
            case .discard:
                discards += 1
                return discards
            }
        }
        var frozen = false
        /// The link killed in the crash window, if any (at most one element). An array, not an
        /// optional: an inline record would make `Storage` ~640 bytes, copied whole by every
        /// non-mutating call on it. Capacity 1 is reserved by `init`, so setting it never allocates.
        var crashWindow: [PendingLink] = []

        /// Forgets everything of the dead process (what ``relaunchInPlace()`` does).
        mutating func forgetProcess() {
            frozen = false
            killPoint = nil
            saves = 0
            consumedMarks = 0
            restores = 0
            discards = 0
            currentOccurrence = 0
            // Assigning `nil` writes a record-sized value: skip it when there is nothing to forget.
            if !crashWindow.isEmpty { crashWindow.removeAll(keepingCapacity: true) }
        }

        /// Whether a consumed mark matches the link `mark` was made from (index loop: a slice would
        /// retain the buffer and make the next write copy it).
        func isConsumed(_ mark: CaptureIdentity) -> Bool {
            for index in 0..<consumedCount where mark.isSameCapture(as: consumed[index]) { return true }
            return false
        }

        /// Starts a write: false when it must not persist (the store is frozen or the armed kill
        /// lands before it, killing `process`).
        mutating func begin(_ operation: HandoffOperation, in process: SimulatedProcess) -> Bool {
            guard !frozen, process.isAlive else {
                frozen = true
                return false
            }
            currentOccurrence = countOccurrence(of: operation)
            if let point = killPoint, point.operation == operation, point.occurrence == currentOccurrence,
                point.timing == .before
            {
                frozen = true
                process.kill()
                return false
            }
            return true
        }

        /// Ends a write that persisted: the armed kill may land right after it. `opensCrashWindow`:
        /// the write was a consumed mark that lets `link` route (a kill now loses it).
        mutating func end(
            _ operation: HandoffOperation,
            of link: PendingLink,
            in process: SimulatedProcess,
            opensCrashWindow: Bool = false
        ) {
            if let point = killPoint, point.operation == operation, point.occurrence == currentOccurrence,
                point.timing == .after
            {
                frozen = true
                if opensCrashWindow {
                    crashWindow.removeAll(keepingCapacity: true)
                    crashWindow.append(link)
                }
                process.kill()
            }
        }

        // Index loops rather than `firstIndex(where:)`: unspecialized in debug builds, that one
        // allocates per call, and these run on the routing path.
        func recordIndex(id: UInt64) -> Int? {
            for index in recordIDs.indices where recordIDs[index] == id { return index }
            return nil
        }

        func freeRecordIndex() -> Int? {
            for index in recordIDs.indices where recordIDs[index] == nil { return index }
            return nil
        }

        /// Writes `link` over the record of its id, or into a free record (`.full` when none is).
        @inline(__always)
        mutating func upsert(_ link: PendingLink) throws(HandoffStoreError) {
            if let existing = recordIndex(id: link.id) {
                records[existing] = link
            } else {
                guard let free = freeRecordIndex() else { throw .full }
                records[free] = link
                recordIDs[free] = link.id
                recordCount += 1
            }
        }

        /// ``InMemoryHandoffStore/occupancy``'s value for this state.
        var occupancy: UInt8 {
            (recordCount > 0 ? InMemoryHandoffStore.holdsRecords : 0)
                | (consumedCount > 0 ? InMemoryHandoffStore.holdsMarks : 0)
        }
    }

    /// Whether the store holds pending records (``holdsRecords``) and consumed marks
    /// (``holdsMarks``), republished by every critical section that changes either count: a load
    /// and a lookup of an empty store answer without a lock round trip (they are then ordered
    /// before any write that would change the answer; a write already made is seen, as a reader
    /// that could observe it is ordered after it).
    private let occupancy = Atomic<UInt8>(0)
    static let holdsRecords: UInt8 = 1
    static let holdsMarks: UInt8 = 2

    /// Republishes `storage`'s occupancy (call inside the lock, after a change of its counts).
    @inline(__always)
    private func publishOccupancy(of storage: borrowing Storage) {
        occupancy.store(storage.occupancy, ordering: .relaxed)
    }

    private let storage: Locked<Storage>
    /// The process this store lives in; killed by an armed ``KillPoint`` (simulation).
    package let process: SimulatedProcess
    /// How many pending records fit.
    public let capacity: Int
    /// How many consumed marks fit.
    public let consumedCapacity: Int

    /// An empty store.
    ///
    /// - Parameters:
    ///   - capacity: pending records that fit (at least 1); `save` beyond it throws `.full`.
    ///   - consumedCapacity: consumed marks that fit (at least 1); `markConsumed` beyond it throws
    ///     `.full` (and the link is then not routed).
    public convenience init(capacity: Int = 16, consumedCapacity: Int = 64) {
        self.init(capacity: capacity, consumedCapacity: consumedCapacity, process: SimulatedProcess())
    }

    /// An empty store living in the simulated `process` (the crash model's kills stop it).
    package init(capacity: Int = 16, consumedCapacity: Int = 64, process: SimulatedProcess) {
        self.capacity = max(1, capacity)
        self.consumedCapacity = max(1, consumedCapacity)
        self.process = process
        self.storage = Locked(
            Storage(
                records: Array(repeating: .placeholder, count: max(1, capacity)),
                recordIDs: Array(repeating: nil, count: max(1, capacity)),
                consumed: Array(
                    repeating: CaptureIdentity(id: 0, installBeginTimestamp: 0),
                    count: max(1, consumedCapacity)
                )
            )
        )
        storage.withLock { $0.crashWindow.reserveCapacity(1) }
    }

    /// The store a relaunched process finds: what `image` had persisted. Records or marks beyond
    /// the image's capacities are dropped (an image made by this type never has any).
    package convenience init(relaunchingFrom image: HandoffImage, process: SimulatedProcess = SimulatedProcess()) {
        self.init(capacity: image.capacity, consumedCapacity: image.consumedCapacity, process: process)
        storage.withLock { storage in
            for link in image.pending.prefix(capacity) {
                storage.records[storage.recordCount] = link
                storage.recordIDs[storage.recordCount] = link.id
                storage.recordCount += 1
            }
            for mark in image.consumed.prefix(consumedCapacity) {
                storage.consumed[storage.consumedCount] = mark
                storage.consumedCount += 1
            }
            publishOccupancy(of: storage)
        }
    }

    // MARK: - Crash model

    /// Kills ``process`` at `point` (replacing any kill armed before).
    /// Occurrences count from this call: a kill armed after some writes lands on the next ones.
    package func armKill(at point: KillPoint) {
        storage.withLock { storage in
            storage.killPoint = point
            storage.saves = 0
            storage.consumedMarks = 0
            storage.restores = 0
            storage.discards = 0
        }
    }

    /// Kills the process now (if it is not dead already) and returns what survives.
    @discardableResult
    package func simulateKill() -> HandoffImage {
        storage.withLock { storage in
            storage.frozen = true
            process.kill()
            return image(of: storage)
        }
    }

    /// Kills this store's process (if still alive) and returns the store the next process finds:
    /// what survived, living in `process`.
    package func relaunch(in process: SimulatedProcess = SimulatedProcess()) -> InMemoryHandoffStore {
        InMemoryHandoffStore(relaunchingFrom: simulateKill(), process: process)
    }

    /// Simulation, in place: the store the next process finds, without allocating. What persisted
    /// stays (pending records and consumed marks, as ``simulateKill()`` would have imaged them);
    /// everything of the dead process goes: the freeze, the armed kill, the operation counts and
    /// the crash-window note. Equivalent to `init(relaunchingFrom: simulateKill(), process:)` with
    /// this store's ``process`` (restart that process, ``SimulatedProcess/restart()``, before
    /// using the store again).
    ///
    /// Call only when no other thread uses the store.
    package func relaunchInPlace() {
        storage.withLock { $0.forgetProcess() }
    }

    /// Simulation, in place: an empty container (a new install), as `init` made it, without
    /// allocating. Call only when no other thread uses the store.
    package func reset() {
        storage.withLock { storage in
            storage.forgetProcess()
            // Only the ids: the records' stale bytes are never read once their slot is free.
            if storage.recordCount > 0 {
                for index in storage.recordIDs.indices { storage.recordIDs[index] = nil }
            }
            storage.recordCount = 0
            storage.consumedCount = 0
            publishOccupancy(of: storage)
        }
    }

    /// What the store holds now (for inspection; does not kill).
    package func currentImage() -> HandoffImage {
        storage.withLock { image(of: $0) }
    }

    /// Whether the store is frozen (its process was killed through it).
    package var isFrozen: Bool { storage.withLock { $0.frozen } }

    private func image(of storage: borrowing Storage) -> HandoffImage {
        var pending: [PendingLink] = []
        pending.reserveCapacity(storage.recordCount)
        for index in storage.records.indices where storage.recordIDs[index] != nil {
            pending.append(storage.records[index])
        }
        pending.sort { $0.capturedAtNanos < $1.capturedAtNanos }
        return HandoffImage(
            pending: pending,
            consumed: Array(storage.consumed[0..<storage.consumedCount]),
            capacity: capacity,
            consumedCapacity: consumedCapacity,
            killedInCrashWindow: storage.crashWindow.first
        )
    }

}

extension InMemoryHandoffStore {
    public func save(_ link: PendingLink) throws(HandoffStoreError) {
        _ = try save(link, unlessConsumed: false)
    }

    /// One critical section for the check and the write.
    public func saveUnlessConsumed(_ link: PendingLink) throws(HandoffStoreError) -> Bool {
        try save(link, unlessConsumed: true)
    }

    private func save(_ link: PendingLink, unlessConsumed: Bool) throws(HandoffStoreError) -> Bool {
        let mark = CaptureIdentity(link)
        return try storage.withLock { (storage: inout Storage) throws(HandoffStoreError) -> Bool in
            if unlessConsumed, storage.isConsumed(mark) { return false }
            guard storage.begin(.save, in: process) else { return true }
            try storage.upsert(link)
            publishOccupancy(of: storage)
            storage.end(.save, of: link, in: process)
            return true
        }
    }

    public func loadPending() throws(HandoffStoreError) -> HandoffLoad {
        var pending: [PendingLink] = []
        let skipped = try loadPending(into: &pending)
        return HandoffLoad(pending: pending, skipped: skipped)
    }

    /// Whether the store holds pending records (``loadPending(into:)`` reads the same flag first).
    public var mayHoldPending: Bool { occupancy.load(ordering: .relaxed) & Self.holdsRecords != 0 }

    /// Allocates nothing once `pending` has room for the pending records.
    public func loadPending(into pending: inout [PendingLink]) throws(HandoffStoreError) -> [HandoffStoreError] {
        guard mayHoldPending else { return [] }
        storage.withLock { storage in
            guard storage.recordCount > 0 else { return }
            let first = pending.count
            storage.records.withUnsafeBufferPointer { records in
                for index in records.indices where storage.recordIDs[index] != nil {
                    // Decided on the small mark first, so a consumed record is never copied.
                    guard !storage.isConsumed(CaptureIdentity(records[index])) else { continue }
                    // Appended from a one-record slice: copied once, straight into `pending` (an
                    // element read by subscript is copied into a temporary first).
                    pending.append(contentsOf: UnsafeBufferPointer(rebasing: records[index..<(index + 1)]))
                }
            }
            // Insertion sort by capture time (stable, in place; a launch loads a handful).
            var next = first + 1
            while next < pending.count {
                var position = next
                while position > first, pending[position - 1].capturedAtNanos > pending[position].capturedAtNanos {
                    pending.swapAt(position - 1, position)
                    position -= 1
                }
                next += 1
            }
        }
        return []
    }

    /// The check and the mark in one critical section.
    public func markConsumed(_ link: PendingLink) throws(HandoffStoreError) -> Bool {
        let mark = CaptureIdentity(link)
        return try storage.withLock { (storage: inout Storage) throws(HandoffStoreError) -> Bool in
            guard storage.begin(.markConsumed, in: process) else { return false }
            let fresh = !storage.isConsumed(mark)
            if fresh {
                guard storage.consumedCount < storage.consumed.count else { throw .full }
                storage.consumed[storage.consumedCount] = mark
                storage.consumedCount += 1
            }
            Self.removeRecord(id: link.id, from: &storage)
            publishOccupancy(of: storage)
            storage.end(.markConsumed, of: link, in: process, opensCrashWindow: fresh)
            return fresh
        }
    }

    public func wasConsumed(_ identity: CaptureIdentity) -> Bool {
        guard occupancy.load(ordering: .relaxed) & Self.holdsMarks != 0 else { return false }
        return storage.withLock { $0.isConsumed(identity) }
    }

    public func restorePending(_ link: PendingLink) throws(HandoffStoreError) {
        let mark = CaptureIdentity(link)
        try storage.withLock { (storage: inout Storage) throws(HandoffStoreError) in
            guard storage.begin(.restorePending, in: process) else { return }
            for index in 0..<storage.consumedCount where storage.consumed[index] == mark {
                storage.consumedCount -= 1
                storage.consumed[index] = storage.consumed[storage.consumedCount]
                break
            }
            try storage.upsert(link)
            publishOccupancy(of: storage)
            storage.end(.restorePending, of: link, in: process)
        }
    }

    public func discard(_ link: PendingLink) throws(HandoffStoreError) {
        storage.withLock { storage in
            guard storage.begin(.discard, in: process) else { return }
            Self.removeRecord(id: link.id, from: &storage)
            publishOccupancy(of: storage)
            storage.end(.discard, of: link, in: process)
        }
    }

    private static func removeRecord(id: UInt64, from storage: inout Storage) {
        guard let index = storage.recordIndex(id: id) else { return }
        storage.recordIDs[index] = nil
        storage.recordCount -= 1
    }
}
