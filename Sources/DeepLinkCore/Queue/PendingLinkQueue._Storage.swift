// Public: the queue's `@inlinable` operations use `Atomic` in other modules' code.
public import Synchronization

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
    ///
    /// The operations are `@inlinable` (and what they touch `@usableFromInline`, `base` included:
    /// still use it only through the handle) so that a caller in another module can fold its copy
    /// of a record into the one copy into or out of a slot, and read a borrowed record straight
    /// from its slot.
    @usableFromInline
    struct _Storage: ~Copyable {
        @usableFromInline let base: UnsafeMutableRawPointer
        @usableFromInline let capacity: Int
        @usableFromInline let mask: UInt

        // Offsets are computed properties, not stored statics: inlined into another module they
        // fold to constants instead of going through a lazily initialised global.
        @inlinable static var positionLineSize: Int { 128 }
        @inlinable static var dequeuePositionOffset: Int { positionLineSize }
        @inlinable static var singleConsumerGuardOffset: Int {
            dequeuePositionOffset + MemoryLayout<Atomic<UInt>>.stride
        }
        @inlinable static var slotsOffset: Int { 2 * positionLineSize }
        /// The payload follows the sequence word, at the payload's alignment.
        @inlinable static var payloadOffset: Int {
            (MemoryLayout<Atomic<UInt>>.stride + MemoryLayout<PendingLink>.alignment - 1)
                & ~(MemoryLayout<PendingLink>.alignment - 1)
        }
        /// Whole 64-byte lines per slot, so every slot's sequence word starts a cache line and
        /// a slot never shares a line with its neighbour's sequence.
        @inlinable static var slotStride: Int { (payloadOffset + MemoryLayout<PendingLink>.size + 63) & ~63 }

        /// - Precondition: `capacity` is a power of two in `1...PendingLinkQueue.maximumCapacity`
        ///   (checked by the caller).
        init(capacity: Int, startingPosition: UInt) {
            self.capacity = capacity
            self.mask = UInt(capacity - 1)
            let byteCount = Self.slotsOffset + capacity * Self.slotStride
            base = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: Self.positionLineSize)
            // Zeroed once: a slot read before its first write (only ever by the planted fault
            // `ConcurrencyFault.consumerReadsUnpublished`) holds an empty record, not garbage.
            base.initializeMemory(as: UInt8.self, repeating: 0, count: byteCount)
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
        @inlinable @inline(__always)
        func withUnsafeHandle<R: ~Copyable, E: Error>(_ body: (_UnsafeHandle) throws(E) -> R) throws(E) -> R {
            try body(_UnsafeHandle(base: base, mask: mask, capacity: capacity))
        }
    }

    /// Typed views of the storage, valid only inside ``_Storage/withUnsafeHandle(_:)``.
    @usableFromInline
    struct _UnsafeHandle {
        @usableFromInline let base: UnsafeMutableRawPointer
        @usableFromInline let mask: UInt
        @usableFromInline let capacity: Int

        @inlinable
        init(base: UnsafeMutableRawPointer, mask: UInt, capacity: Int) {
            self.base = base
            self.mask = mask
            self.capacity = capacity
        }

        /// One slot: its sequence word and its payload.
        @usableFromInline
        struct Slot {
            @usableFromInline let sequence: UnsafeMutablePointer<Atomic<UInt>>
            @usableFromInline let payload: UnsafeMutablePointer<PendingLink>

            @inlinable
            init(sequence: UnsafeMutablePointer<Atomic<UInt>>, payload: UnsafeMutablePointer<PendingLink>) {
                self.sequence = sequence
                self.payload = payload
            }
        }

        /// The next position a producer claims (Vyukov's `enqueue_pos`).
        @inlinable @inline(__always)
        var enqueuePosition: UnsafeMutablePointer<Atomic<UInt>> {
            base.assumingMemoryBound(to: Atomic<UInt>.self)
        }

        /// The next position a consumer claims (Vyukov's `dequeue_pos`).
        @inlinable @inline(__always)
        var dequeuePosition: UnsafeMutablePointer<Atomic<UInt>> {
            (base + _Storage.dequeuePositionOffset).assumingMemoryBound(to: Atomic<UInt>.self)
        }

        /// Debug builds: set while a `tryDequeueSingleConsumer` call runs, to catch two threads
        /// using the single-consumer path at once.
        @inlinable @inline(__always)
        var singleConsumerGuard: UnsafeMutablePointer<Atomic<Bool>> {
            (base + _Storage.singleConsumerGuardOffset).assumingMemoryBound(to: Atomic<Bool>.self)
        }

        /// The sequence of a slot free for the producer of `position`: `2p`.
        ///
        /// Vyukov's original uses `p` and `p + 1`; but then "holds `p`" (`p + 1`) and "free for
        /// `p + capacity`" coincide when the capacity is 1, and a full queue of one accepts a
        /// second element. Doubling keeps the two states apart for every capacity (wrapping
        /// arithmetic stays exact while `capacity` is far below `2^62`).
        @inlinable @inline(__always)
        static func sequence(freeFor position: UInt) -> UInt { position &<< 1 }

        /// The sequence of a slot holding the element of `position`: `2p + 1`.
        @inlinable @inline(__always)
        static func sequence(holding position: UInt) -> UInt { position &<< 1 | 1 }

        @inlinable @inline(__always)
        func slot(for position: UInt) -> Slot {
            // `position & mask` < capacity <= maximumCapacity: neither conversion nor product overflows.
            let slot = base + _Storage.slotsOffset + Int(truncatingIfNeeded: position & mask) &* _Storage.slotStride
            return Slot(
                sequence: slot.assumingMemoryBound(to: Atomic<UInt>.self),
                payload: (slot + _Storage.payloadOffset).assumingMemoryBound(to: PendingLink.self)
            )
        }
    }
}

// MARK: - The algorithm

extension PendingLinkQueue._UnsafeHandle {
    /// A position won by the calling thread, and its slot: the thread may touch the payload
    /// until it publishes (producer) or frees (consumer) the claim.
    @usableFromInline
    struct Claim {
        @usableFromInline let slot: Slot
        @usableFromInline let position: UInt

        @inlinable
        init(slot: Slot, position: UInt) {
            self.slot = slot
            self.position = position
        }
    }

    /// Producer side: wins the next free position, or returns `nil` when the queue is full (the
    /// slot one lap back still holds an element, or is still being read).
    @inlinable @inline(__always)
    func claimEnqueuePosition<Points: _SchedulePoints>(_ points: Points) -> Claim? {
        claimPosition(on: enqueuePosition, ready: Self.sequence(freeFor:), points, counterPoint: .queueTailLoad)
    }

    /// Producer side: hands the payload written into `claim`'s slot to its consumer.
    @inlinable @inline(__always)
    func publish<Points: _SchedulePoints>(_ claim: Claim, _ points: Points) {
        points.reach(.queuePublish)
        // Release: publishes the payload to the consumer that acquires `2p + 1`.
        claim.slot.sequence.pointee.store(Self.sequence(holding: claim.position), ordering: .releasing)
    }

    /// Consumer side (any number of consumers): wins the oldest published position, or returns
    /// `nil` when there is none (empty, or its producer has not published yet).
    @inlinable @inline(__always)
    func claimDequeuePosition<Points: _SchedulePoints>(_ points: Points) -> Claim? {
        claimPosition(on: dequeuePosition, ready: Self.sequence(holding:), points, counterPoint: .queueHeadLoad)
    }

    /// Either side's claim (Vyukov): wins the next position of `counter` (the tail for producers,
    /// the head for consumers) once its slot's sequence is `ready(position)` (free for a producer,
    /// holding for a consumer); `nil` when the slot is a lap behind (full, or empty).
    @inlinable @inline(__always)
    func claimPosition<Points: _SchedulePoints>(
        on counter: UnsafeMutablePointer<Atomic<UInt>>,
        ready: (UInt) -> UInt,
        _ points: Points,
        counterPoint: SchedulePoint
    ) -> Claim? {
        points.reach(counterPoint)
        var position = counter.pointee.load(ordering: .relaxed)
        while true {
            let slot = slot(for: position)
            points.reach(.queueSequenceLoad)
            // Acquire: pairs with the release by which the other side handed the slot over (a
            // consumer freeing it, a producer publishing it), so its access to the payload
            // happens before ours.
            let sequence = slot.sequence.pointee.load(ordering: .acquiring)
            let lead = Int(bitPattern: sequence &- ready(position))
            if lead == 0 {
                points.reach(.queueClaim)
                // Relaxed: the position publishes nothing; the slot's sequence does.
                let (exchanged, current) = counter.pointee.weakCompareExchange(
                    expected: position,
                    desired: position &+ 1,
                    successOrdering: .relaxed,
                    failureOrdering: .relaxed
                )
                if exchanged { return Claim(slot: slot, position: position) }
                position = current
            } else if lead < 0 {
                // A producer: the slot still holds the element of `p - capacity` (full). A
                // consumer: position `p` has not been published yet (empty).
                return nil
            } else {
                // Another thread of the same side took this position already; catch up.
                points.reach(counterPoint)
                position = counter.pointee.load(ordering: .relaxed)
            }
        }
    }

    /// Consumer side, single consumer: as ``claimDequeuePosition()`` but the head is advanced
    /// with a plain store, since no other thread writes it.
    @inlinable @inline(__always)
    func claimDequeuePositionAsSingleConsumer<Points: _SchedulePoints>(_ points: Points) -> Claim? {
        let head = dequeuePosition
        points.reach(.queueHeadLoad)
        // Relaxed: this thread is the only writer of the head.
        let position = head.pointee.load(ordering: .relaxed)
        let slot = slot(for: position)
        points.reach(.queueSequenceLoad)
        // Acquire: pairs with the producer's release of `2p + 1`, making its payload visible.
        let sequence = slot.sequence.pointee.load(ordering: .acquiring)
        let lead = Int(bitPattern: sequence &- Self.sequence(holding: position))
        guard lead == 0 || points.plants(.consumerReadsUnpublished) && isClaimedUnpublished(position, points) else {
            assert(lead < 0, "PendingLinkQueue.tryDequeueSingleConsumer raced with another consumer")
            return nil
        }
        points.reach(.queueHeadStore)
        head.pointee.store(position &+ 1, ordering: .relaxed)
        return Claim(slot: slot, position: position)
    }

    /// The planted fault ``ConcurrencyFault/consumerReadsUnpublished``: whether a producer has
    /// claimed `position` (the tail is past it), published or not.
    @inlinable @inline(__always)
    func isClaimedUnpublished<Points: _SchedulePoints>(_ position: UInt, _ points: Points) -> Bool {
        points.reach(.queueTailLoad)
        return Int(bitPattern: enqueuePosition.pointee.load(ordering: .relaxed) &- position) > 0
    }

    /// Debug builds: marks the start of a single-consumer dequeue, trapping when another one is
    /// still running (two consuming threads, or a dequeue from inside a borrowing `body`).
    @inlinable @inline(__always)
    func enterSingleConsumer() {
        let wasConsuming = singleConsumerGuard.pointee.exchange(true, ordering: .acquiring)
        precondition(!wasConsuming, "PendingLinkQueue.tryDequeueSingleConsumer called from two threads at once")
    }

    /// Debug builds: marks the end of a single-consumer dequeue.
    @inlinable @inline(__always)
    func leaveSingleConsumer() {
        singleConsumerGuard.pointee.store(false, ordering: .releasing)
    }

    /// Consumer side: frees `claim`'s slot (its payload already moved out) for the producer one
    /// lap later.
    @inlinable @inline(__always)
    func free<Points: _SchedulePoints>(_ claim: Claim, _ points: Points) {
        points.reach(.queueFree)
        // Release: orders our read of the payload before the next lap's producer writes it.
        claim.slot.sequence.pointee.store(
            Self.sequence(freeFor: claim.position &+ UInt(truncatingIfNeeded: capacity)),
            ordering: .releasing
        )
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
    // SPI-REMOVED
    package func _quiescentInvariantViolation() -> String? {
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

    /// Testing: the addresses of the enqueue position, the dequeue position and the first two
    /// slots' sequence words, so that tests can check the cache-line layout of a real instance.
    // SPI-REMOVED
    package func _layoutAddresses() -> (enqueue: UInt, dequeue: UInt, firstSlot: UInt, secondSlot: UInt) {
        _storage.withUnsafeHandle { handle in
            let first = handle.slot(for: 0).sequence
            let second = handle.slot(for: 1).sequence
            return (
                UInt(bitPattern: handle.enqueuePosition),
                UInt(bitPattern: handle.dequeuePosition),
                UInt(bitPattern: first),
                UInt(bitPattern: second)
            )
        }
    }

    /// Debug builds: traps when ``_quiescentInvariantViolation()`` finds a broken invariant.
    /// Call only when no other thread uses the queue (after `init`, in `deinit`, in tests).
    // SPI-REMOVED
    package func _checkInvariants() {
        #if DEBUG
        if let violation = _quiescentInvariantViolation() {
            preconditionFailure("PendingLinkQueue invariant broken: \(violation)")
        }
        #endif
    }
}
