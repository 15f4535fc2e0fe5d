import Synchronization

extension PendingLinkQueue {
    /// The queue's one allocation, made in `init` and freed in `deinit`; nothing else allocates.
    ///
    /// Layout (all offsets from a 128-byte aligned base):
    ///
    ///     [0, 128)    enqueue position (tail), alone on its cache line(s): written by producers
    ///     [128, 256)  dequeue position (head), alone on its cache line(s): written by consumers
    ///                 (+ the debug-only single-consumer guard, also a consumer-side word)
    ///     [256, …)    `capacity` slots of `slotStride` bytes: a sequence word, then the payload
    ///
    /// 128 rather than 64 bytes per position because adjacent-line prefetchers (x86) and 128-byte
    /// lines (Apple silicon) would otherwise make producers and consumers share traffic anyway.
    ///
    /// The pointers are reachable only through ``withUnsafeHandle(_:)``, whose handle must not
    /// escape the closure.
    struct _Storage: ~Copyable {
        private let base: UnsafeMutableRawPointer
        let capacity: Int
        private let mask: UInt

        static let positionLineSize = 128
        static let dequeuePositionOffset = positionLineSize
        static let singleConsumerGuardOffset = dequeuePositionOffset + MemoryLayout<Atomic<UInt>>.stride
        static let slotsOffset = 2 * positionLineSize
        /// The payload follows the sequence word, at the payload's alignment.
        static let payloadOffset =
            (MemoryLayout<Atomic<UInt>>.stride + MemoryLayout<PendingLink>.alignment - 1)
            & ~(MemoryLayout<PendingLink>.alignment - 1)
        /// Whole 64-byte lines per slot, so every slot's sequence word starts a cache line and
        /// a slot never shares a line with its neighbour's sequence.
        static let slotStride = (payloadOffset + MemoryLayout<PendingLink>.size + 63) & ~63

        /// - Precondition: `capacity` is a power of two in `1...PendingLinkQueue.maximumCapacity`
        ///   (checked by the caller).
        init(capacity: Int, startingPosition: UInt) {
            self.capacity = capacity
            self.mask = UInt(capacity - 1)
            let byteCount = Self.slotsOffset + capacity * Self.slotStride
            base = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: Self.positionLineSize)
            (base).bindMemory(to: Atomic<UInt>.self, capacity: 1).initialize(to: Atomic(startingPosition))
            (base + Self.dequeuePositionOffset).bindMemory(to: Atomic<UInt>.self, capacity: 1)
                .initialize(to: Atomic(startingPosition))
            (base + Self.singleConsumerGuardOffset).bindMemory(to: Atomic<Bool>.self, capacity: 1)
                .initialize(to: Atomic(false))
            // Position p lives in slot p & mask; an empty slot's sequence marks it free for the
            // next position that will be enqueued into it.
            for offset in 0..<UInt(capacity) {
                let position = startingPosition &+ offset
                let slot = base + Self.slotsOffset + Int(position & mask) * Self.slotStride
                slot.bindMemory(to: Atomic<UInt>.self, capacity: 1)
                    .initialize(to: Atomic(_UnsafeHandle.sequence(freeFor: position)))
                // The payload stays uninitialized memory until a producer fills the slot.
                _ = (slot + Self.payloadOffset).bindMemory(to: PendingLink.self, capacity: 1)
            }
        }

        deinit {
            // Exclusive access here: no other thread can hold the queue any more.
            let handle = _UnsafeHandle(base: base, mask: mask, capacity: capacity)
            let head = handle.dequeuePosition.pointee.load(ordering: .relaxed)
            let tail = handle.enqueuePosition.pointee.load(ordering: .relaxed)
            var position = head
            while position != tail {
                let slot = handle.slot(for: position)
                _ = slot.payload.deinitialize(count: 1)
                slot.sequence.deinitialize(count: 1)
                position &+= 1
            }
            while position != head &+ UInt(capacity) {
                handle.slot(for: position).sequence.deinitialize(count: 1)
                position &+= 1
            }
            handle.enqueuePosition.deinitialize(count: 1)
            handle.dequeuePosition.deinitialize(count: 1)
            handle.singleConsumerGuard.deinitialize(count: 1)
            base.deallocate()
        }

        /// Calls `body` with a handle to the storage's memory. The handle is valid only inside
        /// `body` (the storage is freed when the queue is), so it must not be stored or returned.
        @inline(__always)
        func withUnsafeHandle<R, E: Error>(_ body: (_UnsafeHandle) throws(E) -> R) throws(E) -> R {
            try body(_UnsafeHandle(base: base, mask: mask, capacity: capacity))
        }
    }

    /// Typed views of the storage, valid only inside ``_Storage/withUnsafeHandle(_:)``.
    struct _UnsafeHandle {
        let base: UnsafeMutableRawPointer
        let mask: UInt
        let capacity: Int

        /// One slot: its sequence word and its payload.
        struct Slot {
            let sequence: UnsafeMutablePointer<Atomic<UInt>>
            let payload: UnsafeMutablePointer<PendingLink>
        }

        /// The next position a producer claims (Vyukov's `enqueue_pos`).
        @inline(__always)
        var enqueuePosition: UnsafeMutablePointer<Atomic<UInt>> {
            base.assumingMemoryBound(to: Atomic<UInt>.self)
        }

        /// The next position a consumer claims (Vyukov's `dequeue_pos`).
        @inline(__always)
        var dequeuePosition: UnsafeMutablePointer<Atomic<UInt>> {
            (base + _Storage.dequeuePositionOffset).assumingMemoryBound(to: Atomic<UInt>.self)
        }

        /// Debug builds: set while a `tryDequeueSingleConsumer` call runs, to catch two threads
        /// using the single-consumer path at once.
        @inline(__always)
        var singleConsumerGuard: UnsafeMutablePointer<Atomic<Bool>> {
            (base + _Storage.singleConsumerGuardOffset).assumingMemoryBound(to: Atomic<Bool>.self)
        }

        /// The sequence of a slot free for the producer of `position`: `2p`.
        ///
        /// Vyukov's original uses `p` and `p + 1`; but then "holds `p`" (`p + 1`) and "free for
        /// `p + capacity`" coincide when the capacity is 1, and a full queue of one accepts a
        /// second element. Doubling keeps the two states apart for every capacity (wrapping
        /// arithmetic stays exact while `capacity` is far below `2^62`).
        @inline(__always)
        static func sequence(freeFor position: UInt) -> UInt { position &<< 1 }

        /// The sequence of a slot holding the element of `position`: `2p + 1`.
        @inline(__always)
        static func sequence(holding position: UInt) -> UInt { position &<< 1 | 1 }

        @inline(__always)
        func slot(for position: UInt) -> Slot {
            let slot = base + _Storage.slotsOffset + Int(position & mask) * _Storage.slotStride
            return Slot(
                sequence: slot.assumingMemoryBound(to: Atomic<UInt>.self),
                payload: (slot + _Storage.payloadOffset).assumingMemoryBound(to: PendingLink.self)
            )
        }
    }
}

// MARK: - Invariants

extension PendingLinkQueue {
    /// Describes the first broken invariant of a queue that no thread is using (between
    /// operations), or returns `nil` when all hold:
    ///
    /// - `0 <= tail - head <= capacity`;
    /// - every position `p` in `head..<tail` holds an element: its slot's sequence is `2p + 1`;
    /// - every position `p` in `tail..<head + capacity` is free: its slot's sequence is `2p`.
    ///
    /// The answer is meaningless while other threads enqueue or dequeue.
    ///
    /// - Complexity: O(capacity).
    @_spi(Testing)
    public func _quiescentInvariantViolation() -> String? {
        _storage.withUnsafeHandle { handle -> String? in
            let head = handle.dequeuePosition.pointee.load(ordering: .acquiring)
            let tail = handle.enqueuePosition.pointee.load(ordering: .acquiring)
            let count = Int(bitPattern: tail &- head)
            guard count >= 0, count <= capacity else {
                return "count \(count) (tail \(tail) - head \(head)) outside 0...\(capacity)"
            }
            for offset in 0..<UInt(capacity) {
                let position = head &+ offset
                let sequence = handle.slot(for: position).sequence.pointee.load(ordering: .acquiring)
                let expected =
                    offset < UInt(count)
                    ? _UnsafeHandle.sequence(holding: position) : _UnsafeHandle.sequence(freeFor: position)
                if sequence != expected {
                    return "slot of position \(position) has sequence \(sequence), expected \(expected)"
                }
            }
            if handle.singleConsumerGuard.pointee.load(ordering: .relaxed) {
                return "single-consumer guard left set"
            }
            return nil
        }
    }

    /// Debug builds: traps when ``_quiescentInvariantViolation()`` finds a broken invariant.
    /// Call only when no other thread uses the queue (after `init`, in `deinit`, in tests).
    @_spi(Testing)
    public func _checkInvariants() {
        #if DEBUG
        if let violation = _quiescentInvariantViolation() {
            preconditionFailure("PendingLinkQueue invariant broken: \(violation)")
        }
        #endif
    }
}
