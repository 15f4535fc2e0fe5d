import Synchronization

/// The App Group container for the hot simulation: a fixed-capacity in-memory ``HandoffStore``
/// with a crash model.
///
/// Every operation is atomic and immediately "durable": what the store holds when its process is
/// killed is exactly what a relaunch finds (``simulateKill()`` returns it as a ``HandoffImage``;
/// ``init(relaunchingFrom:process:)`` starts from it). A ``KillPoint`` armed with
/// ``armKill(at:)`` kills the shared ``SimulatedProcess`` before or after a chosen operation, so a
/// simulation can place a kill at every step, the crash window included.
///
/// After the kill the store is frozen: writes are ignored (a dead process persists nothing) and
/// reads answer from the frozen image.
///
/// Thread safety: all state is behind one `Mutex`; every member may be called from any thread.
///
/// - Complexity: `save`, `markConsumed`, `discard` and `wasConsumed` are O(capacity) and allocate
///   nothing (slots are preallocated); `loadPending` and the image allocate.
public final class InMemoryHandoffStore: HandoffStore {
    struct Storage: ~Copyable {
        var records: [PendingLink?]
        var recordCount = 0
        var consumed: [ConsumedMark]
        var consumedCount = 0
        var killPoint: KillPoint?
        var operationCounts: [Int] = Array(repeating: 0, count: KillPoint.Operation.allCases.count)
        var frozen = false
        var crashWindow: PendingLink?
    }

    private let storage: Mutex<Storage>
    /// The process this store lives in; killed by an armed ``KillPoint``.
    public let process: SimulatedProcess
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
    public init(capacity: Int = 16, consumedCapacity: Int = 64, process: SimulatedProcess = SimulatedProcess()) {
        self.capacity = max(1, capacity)
        self.consumedCapacity = max(1, consumedCapacity)
        self.process = process
        self.storage = Mutex(
            Storage(
                records: Array(repeating: nil, count: max(1, capacity)),
                consumed: Array(repeating: ConsumedMark(id: 0, installBeginTimestamp: 0), count: max(1, consumedCapacity))
            )
        )
    }

    /// The store a relaunched process finds: what `image` had persisted. Records or marks beyond
    /// the image's capacities are dropped (an image made by this type never has any).
    public convenience init(relaunchingFrom image: HandoffImage, process: SimulatedProcess = SimulatedProcess()) {
        self.init(capacity: image.capacity, consumedCapacity: image.consumedCapacity, process: process)
        storage.withLock { storage in
            for link in image.pending.prefix(capacity) {
                storage.records[storage.recordCount] = link
                storage.recordCount += 1
            }
            for mark in image.consumed.prefix(consumedCapacity) {
                storage.consumed[storage.consumedCount] = mark
                storage.consumedCount += 1
            }
        }
    }

    // MARK: - Crash model

    /// Kills ``process`` at `point` (replacing any kill armed before).
    public func armKill(at point: KillPoint) {
        storage.withLock { $0.killPoint = point }
    }

    /// Kills the process now (if it is not dead already) and returns what survives.
    @discardableResult
    public func simulateKill() -> HandoffImage {
        storage.withLock { storage in
            storage.frozen = true
            process.kill()
            return image(of: storage)
        }
    }

    /// What the store holds now (for inspection; does not kill).
    public func currentImage() -> HandoffImage {
        storage.withLock { image(of: $0) }
    }

    /// Whether the store is frozen (its process was killed through it).
    public var isFrozen: Bool { storage.withLock { $0.frozen } }

    private func image(of storage: borrowing Storage) -> HandoffImage {
        var pending: [PendingLink] = []
        pending.reserveCapacity(storage.recordCount)
        for case let link? in storage.records { pending.append(link) }
        pending.sort { $0.capturedAtNanos < $1.capturedAtNanos }
        return HandoffImage(
            pending: pending,
            consumed: Array(storage.consumed[0..<storage.consumedCount]),
            capacity: capacity,
            consumedCapacity: consumedCapacity,
            killedInCrashWindow: storage.crashWindow
        )
    }

    /// Runs `write` unless the store is frozen, killing the process before or after it when the
    /// armed kill point says so.
    private func mutate(
        _ operation: KillPoint.Operation,
        _ link: PendingLink,
        _ write: (inout Storage) throws(HandoffStoreError) -> Void
    ) throws(HandoffStoreError) {
        try storage.withLock { (storage: inout Storage) throws(HandoffStoreError) in
            guard !storage.frozen, process.isAlive else {
                storage.frozen = true
                return
            }
            let slot = KillPoint.Operation.allCases.firstIndex(of: operation)!
            storage.operationCounts[slot] += 1
            let count = storage.operationCounts[slot]
            if let point = storage.killPoint, point.operation == operation, point.occurrence == count,
                point.timing == .before
            {
                storage.frozen = true
                process.kill()
                return
            }
            try write(&storage)
            if let point = storage.killPoint, point.operation == operation, point.occurrence == count,
                point.timing == .after
            {
                storage.frozen = true
                if operation == .markConsumed { storage.crashWindow = link }
                process.kill()
            }
        }
    }
}

extension InMemoryHandoffStore {
    public func save(_ link: PendingLink) throws(HandoffStoreError) {
        try mutate(.save, link) { (storage: inout Storage) throws(HandoffStoreError) in
            if let existing = storage.records.firstIndex(where: { $0?.id == link.id }) {
                storage.records[existing] = link
                return
            }
            guard let free = storage.records.firstIndex(where: { $0 == nil }) else { throw .full }
            storage.records[free] = link
            storage.recordCount += 1
        }
    }

    public func loadPending() throws(HandoffStoreError) -> HandoffLoad {
        storage.withLock { storage in
            var pending: [PendingLink] = []
            pending.reserveCapacity(storage.recordCount)
            for case let link? in storage.records {
                let consumed = storage.consumed[0..<storage.consumedCount].contains { $0.matches(link) }
                if !consumed { pending.append(link) }
            }
            pending.sort { $0.capturedAtNanos < $1.capturedAtNanos }
            return HandoffLoad(pending: pending)
        }
    }

    public func markConsumed(_ link: PendingLink) throws(HandoffStoreError) {
        try mutate(.markConsumed, link) { (storage: inout Storage) throws(HandoffStoreError) in
            let mark = ConsumedMark(link)
            if !storage.consumed[0..<storage.consumedCount].contains(mark) {
                guard storage.consumedCount < storage.consumed.count else { throw .full }
                storage.consumed[storage.consumedCount] = mark
                storage.consumedCount += 1
            }
            Self.removeRecord(id: link.id, from: &storage)
        }
    }

    public func wasConsumed(_ link: PendingLink) -> Bool {
        storage.withLock { storage in
            storage.consumed[0..<storage.consumedCount].contains { $0.matches(link) }
        }
    }

    public func discard(_ link: PendingLink) throws(HandoffStoreError) {
        try mutate(.discard, link) { (storage: inout Storage) throws(HandoffStoreError) in
            Self.removeRecord(id: link.id, from: &storage)
        }
    }

    private static func removeRecord(id: UInt64, from storage: inout Storage) {
        guard let index = storage.records.firstIndex(where: { $0?.id == id }) else { return }
        storage.records[index] = nil
        storage.recordCount -= 1
    }
}
