import Synchronization

/// What ``PendingLinkQueue/tryEnqueue(_:)`` did with a link.
@usableFromInline
package enum EnqueueResult: Sendable, Equatable {
    /// The link is in the queue; a later dequeue returns it exactly once.
    case enqueued
    /// The queue had no free slot; the link was not stored. The caller counts (and reports) it.
    case full
}

/// A bounded, lock-free, multi-producer multi-consumer FIFO of ``PendingLink`` records: the hand-off
/// between capture sources (App Clip handoff reader, install-referrer callback, universal-link
/// handler, on any thread) and the resolver that consumes them.
///
/// ## Design
///
/// Dmitry Vyukov's bounded MPMC queue. Storage is one allocation made in `init`: an enqueue
/// position (tail), a dequeue position (head), each alone on its own 128-byte line so producers
/// and consumers do not false-share, and `capacity` slots, each a sequence number followed by an
/// inline ``PendingLink`` (no references, ~750 bytes). Position `p` lives in slot `p & (capacity - 1)`.
///
/// A slot's sequence says whose turn it is:
///
/// - `sequence == 2p`: the slot is free for the producer of position `p`;
/// - `sequence == 2p + 1`: it holds the element of position `p`, ready for that position's consumer;
/// - the consumer then stores `2(p + capacity)`, freeing it for the producer one lap later.
///
/// (Vyukov's original counts `p`, `p + 1`, `p + capacity`; doubling keeps "holds `p`" and "free
/// for `p + 1`" apart when the capacity is 1.)
///
/// A producer claims position `p` by advancing the tail with a compare-exchange (relaxed: the
/// position itself publishes nothing), writes the payload, then stores `2p + 1` with *release*.
/// A consumer reads the sequence with *acquire* (so it sees the payload that release published),
/// claims by advancing the head, moves the payload out, then stores `2(p + capacity)` with
/// *release*; the next producer's *acquire* load of that sequence orders the consumer's read
/// before its own write. Every payload access is therefore ordered by a release/acquire pair on
/// the slot's sequence — no fences, which ThreadSanitizer cannot model — so TSan sees no race
/// (with this toolchain it checks the payload copies only under
/// `TSAN_OPTIONS=ignore_interceptors_accesses=0`; see `PendingLinkQueueStressTests`).
/// Positions are `UInt` and wrap around; differences are read as signed, which is exact as long
/// as `capacity` is far below `2^62`.
///
/// ``tryDequeueSingleConsumer()`` is the same consumer protocol without the compare-exchange,
/// for when exactly one thread consumes (the resolver).
///
/// Each dequeue comes in three forms: returning the link (`tryDequeue()`), moving it into the
/// caller's variable (`tryDequeue(into:)`, one copy of the record) and lending it to a closure
/// while it is still in its slot (`tryDequeue { link in … }`, no copy). The hot operations are
/// `@inlinable`, so a caller's copy of the record folds into the one copy into or out of a slot.
///
/// ## Progress
///
/// Neither side ever blocks or spins on another thread: `tryEnqueue` answers ``EnqueueResult/full``
/// and `tryDequeue` answers `nil` instead of waiting. Retries happen only when another thread of
/// the same side won the race for a position, so one of the racing threads always succeeds. As
/// with every Vyukov queue, a thread preempted between claiming and finishing holds up its slot
/// (the queue is not lock-free in the strict sense, though no caller ever waits): while a producer
/// that claimed position `p` has not yet published it, consumers report the queue empty at `p`
/// even if later positions are ready, and while a consumer that claimed a slot has not yet freed
/// it, producers one lap ahead report full.
///
/// ## Memory
///
/// No heap allocation after `init`: enqueue copies the bytes the record uses into its slot (a
/// typical record: the slot's first cache line, with the sequence and the link, and the line of
/// its fixed fields) and dequeue moves it out (O(size of `PendingLink`)) or lends it in place. The
/// allocation is 256 bytes of positions plus `capacity` slots of 768 bytes (an 8-byte sequence and
/// the 752-byte record, rounded up to whole 64-byte lines).
///
/// Thread safety: `Sendable`. ``tryEnqueue(_:)``, the `tryDequeue` forms and ``approximateCount``
/// may be called from any number of threads at once. The `tryDequeueSingleConsumer` forms may be
/// used by only one thread at a time, and never concurrently with a `tryDequeue` form (debug
/// builds trap when two threads overlap in them).
///
/// - Complexity: `tryEnqueue` and the `tryDequeue` forms are O(1) plus retries under contention;
///   the `tryDequeueSingleConsumer` forms are O(1); `init` is O(capacity).
@usableFromInline  // else other modules never inline a package class's `@inlinable` methods
package final class PendingLinkQueue: Sendable {
    /// The largest capacity accepted: 2^20 slots (about 600 MB of slots). A pending-link queue
    /// holds links waiting for one app's resolver; more than this is a configuration mistake.
    package static let maximumCapacity = 1 << 20

    @usableFromInline let _storage: _Storage

    /// The number of slots, a power of two fixed at creation.
    package var capacity: Int { _storage.capacity }

    /// Whether `capacity` is accepted by ``init(capacity:)``: a power of two in
    /// `1...maximumCapacity`.
    package static func isValidCapacity(_ capacity: Int) -> Bool {
        capacity >= 1 && capacity <= maximumCapacity && capacity & (capacity - 1) == 0
    }

    /// Creates an empty queue with room for `capacity` links, allocating all its memory now.
    ///
    /// - Precondition: `capacity` is a power of two in `1...maximumCapacity`. For a capacity that
    ///   comes from input, use ``init(validatingCapacity:)``.
    /// - Complexity: O(capacity).
    package convenience init(capacity: Int) {
        precondition(
            Self.isValidCapacity(capacity),
            "PendingLinkQueue capacity must be a power of two in 1...\(Self.maximumCapacity), got \(capacity)"
        )
        self.init(_unchecked: capacity, startingPosition: 0)
    }

    /// Creates an empty queue, or returns `nil` when `capacity` is not a power of two in
    /// `1...maximumCapacity` (see ``isValidCapacity(_:)``).
    ///
    /// - Complexity: O(capacity).
    package convenience init?(validatingCapacity capacity: Int) {
        guard Self.isValidCapacity(capacity) else { return nil }
        self.init(_unchecked: capacity, startingPosition: 0)
    }

    /// Testing: a queue whose positions start at `startingPosition` instead of 0, so that tests
    /// can drive the counters across their wrap-around (`UInt.max` to 0) quickly.
    ///
    /// - Precondition: as ``init(capacity:)``.
    // SPI-REMOVED
    package convenience init(capacity: Int, startingPosition: UInt) {
        precondition(
            Self.isValidCapacity(capacity),
            "PendingLinkQueue capacity must be a power of two in 1...\(Self.maximumCapacity), got \(capacity)"
        )
        self.init(_unchecked: capacity, startingPosition: startingPosition)
    }

    private init(_unchecked capacity: Int, startingPosition: UInt) {
        _storage = _Storage(capacity: capacity, startingPosition: startingPosition)
        _checkInvariants()
    }

    deinit {
        _checkInvariants()
    }

    /// Appends a copy of `link` if a slot is free; never blocks.
    ///
    /// The queue copies the record once, from `link` into the claimed slot, but it needs the
    /// record's address for that, and a borrowed record is not in memory as far as the compiler
    /// is concerned: unless the optimiser finds the caller's variable to read from, taking the
    /// address copies all ~750 bytes to the stack first. A caller that builds its records in a
    /// variable it reuses pays nothing of that with ``tryEnqueue(copyingFrom:)``.
    ///
    /// - Returns: ``EnqueueResult/enqueued``, or ``EnqueueResult/full`` when every slot holds a
    ///   link (or the next slot's previous link is still being moved out by a consumer); then
    ///   `link` was not stored.
    /// - Complexity: O(1) plus retries when other producers claim positions concurrently; one
    ///   copy of the record.
    @inlinable
    package func tryEnqueue(_ link: borrowing PendingLink) -> EnqueueResult {
        _tryEnqueue(link, _Unscheduled())
    }

    /// Appends a copy of the record in `link` if a slot is free, reading it where it lies; never
    /// blocks. `link` is left unchanged.
    ///
    /// For a caller that builds each record in a variable it reuses: it fills the variable in
    /// place (for example with ``ReferrerParser/read(_:validator:accountKey:into:)``, or by
    /// setting the fields that differ from the last capture) and enqueues from it. `inout` gives
    /// the queue the variable's address, so the one copy of the record, the bytes it uses, goes
    /// straight from the variable into the slot; ``tryEnqueue(_:)`` may first copy the whole
    /// record to the stack.
    ///
    /// ```swift
    /// var capture = template  // what this source's captures share
    /// // per capture:
    /// capture.id = nextID()
    /// capture.capturedAtNanos = clock.nowNanos()
    /// let result = queue.tryEnqueue(copyingFrom: &capture)
    /// ```
    ///
    /// - Returns: as ``tryEnqueue(_:)``.
    /// - Complexity: as ``tryEnqueue(_:)``; one copy of the record.
    @inlinable
    package func tryEnqueue(copyingFrom link: inout PendingLink) -> EnqueueResult {
        withUnsafePointer(to: &link) { _tryEnqueue(copyingFrom: $0, _Unscheduled()) }
    }

    /// ``tryEnqueue(_:)`` through `points` (the resolver's: its schedule points).
    @inlinable @inline(__always)
    package func _tryEnqueue<Points: _SchedulePoints>(_ link: borrowing PendingLink, _ points: Points) -> EnqueueResult
    {
        // By address: a closure capturing the record would copy it into the closure's context
        // first (a borrowed parameter cannot be captured at all).
        withUnsafePointer(to: link) { _tryEnqueue(copyingFrom: $0, points) }
    }

    /// Both enqueues: claims a position, copies the record at `source` into its slot and
    /// publishes it.
    @inlinable @inline(__always)
    func _tryEnqueue<Points: _SchedulePoints>(
        copyingFrom source: UnsafePointer<PendingLink>,
        _ points: Points
    ) -> EnqueueResult {
        _storage.withUnsafeHandle { handle in
            guard let claim = handle.claimEnqueuePosition(points) else { return .full }
            // Only the bytes in use: a whole record is twelve cache lines, a typical one two.
            PendingLink._assign(claim.slot.payload, compactlyFrom: source)
            handle.publish(claim, points)
            return .enqueued
        }
    }

    // MARK: Dequeue into caller storage

    /// Moves the oldest link into `link` and returns `true`, or returns `false` (leaving `link`
    /// unchanged) when the queue is empty; never blocks. Any number of threads may call it at once.
    ///
    /// The record is copied once, from its slot straight into `link`; a consumer that reuses one
    /// variable across calls pays nothing else per link.
    ///
    /// - Complexity: O(1) plus retries when other consumers claim positions concurrently; one
    ///   copy of the record.
    @inlinable
    package func tryDequeue(into link: inout PendingLink) -> Bool {
        _withDequeueClaim { Self._move(from: $0, into: &link) } != nil
    }

    /// Moves the oldest link into `link` and returns `true`, or returns `false` (leaving `link`
    /// unchanged) when the queue is empty, without a compare-exchange; never blocks.
    ///
    /// Thread safety: as ``tryDequeueSingleConsumer()``: one consuming thread at a time, never
    /// concurrently with the multi-consumer dequeues; producers may run concurrently. Debug builds
    /// trap when two single-consumer calls overlap.
    ///
    /// - Complexity: O(1); one copy of the record.
    @inlinable
    package func tryDequeueSingleConsumer(into link: inout PendingLink) -> Bool {
        _withSingleConsumerDequeueClaim(_Unscheduled()) { Self._move(from: $0, into: &link) } != nil
    }

    // MARK: Dequeue by borrowing the slot

    /// Removes the oldest link, calls `body` with a borrow of it (still in its slot, not copied)
    /// and returns what `body` returns; returns `nil` without calling `body` when the queue is
    /// empty. Any number of threads may call it at once.
    ///
    /// The link is removed whether or not `body` throws. While `body` runs the slot stays claimed:
    /// other consumers carry on with later links, but a producer one lap ahead (`capacity`
    /// enqueues later) reports ``EnqueueResult/full`` until `body` returns, so keep `body` short.
    /// `body` may enqueue into this queue.
    ///
    /// - Complexity: O(1) plus retries when other consumers claim positions concurrently, plus
    ///   `body`; no copy of the record.
    @inlinable
    package func tryDequeue<Result: ~Copyable, Failure: Error>(
        _ body: (borrowing PendingLink) throws(Failure) -> Result
    ) throws(Failure) -> Result? {
        try _withDequeueClaim { payload throws(Failure) in try Self._consume(payload, body) }
    }

    /// Removes the oldest link, calls `body` with a borrow of it (still in its slot, not copied)
    /// and returns what `body` returns, without a compare-exchange; returns `nil` without calling
    /// `body` when the queue is empty.
    ///
    /// The link is removed whether or not `body` throws. While `body` runs the slot stays claimed,
    /// so a producer one lap ahead reports ``EnqueueResult/full`` until `body` returns. `body` may
    /// enqueue into this queue but must not dequeue from it.
    ///
    /// Thread safety: as ``tryDequeueSingleConsumer()``: one consuming thread at a time, never
    /// concurrently with the multi-consumer dequeues; producers may run concurrently. Debug builds
    /// trap when two single-consumer calls overlap (including a dequeue from inside `body`).
    ///
    /// - Complexity: O(1) plus `body`; no copy of the record.
    @inlinable
    package func tryDequeueSingleConsumer<Result: ~Copyable, Failure: Error>(
        _ body: (borrowing PendingLink) throws(Failure) -> Result
    ) throws(Failure) -> Result? {
        try _withSingleConsumerDequeueClaim(_Unscheduled()) { payload throws(Failure) in
            try Self._consume(payload, body)
        }
    }

    /// ``tryDequeueSingleConsumer(_:)`` through `points` (the resolver's: its schedule points),
    /// lending the slot by address.
    @inlinable @inline(__always)
    package func _tryDequeueSingleConsumer<Points: _SchedulePoints, Result: ~Copyable, Failure: Error>(
        _ points: Points,
        _ body: (UnsafePointer<PendingLink>) throws(Failure) -> Result
    ) throws(Failure) -> Result? {
        // The slot's address, not a borrow: a borrowed record read from memory is loaded (copied)
        // first wherever the call is not inlined.
        try _withSingleConsumerDequeueClaim(points) { payload throws(Failure) in
            defer { payload.deinitialize(count: 1) }
            return try body(payload)
        }
    }

    // MARK: Dequeue returning the link

    /// Removes and returns the oldest link, or `nil` when the queue is empty; never blocks. Any
    /// number of threads may call it at once.
    ///
    /// A consumer that dequeues many links is cheaper with ``tryDequeue(into:)`` (one copy per
    /// link into a reused variable) or ``tryDequeue(_:)`` (no copy).
    ///
    /// - Complexity: O(1) plus retries when other consumers claim positions concurrently.
    @inlinable
    package func tryDequeue() -> PendingLink? {
        _withDequeueClaim { $0.move() }
    }

    /// Removes and returns the oldest link, or `nil` when the queue is empty, without a
    /// compare-exchange; never blocks.
    ///
    /// Only one thread may consume through the single-consumer methods at a time, and the
    /// multi-consumer dequeues (``tryDequeue()`` and its variants) must not run concurrently with
    /// them (the head position is written with a plain store). Producers may run concurrently as
    /// usual. Debug builds trap when two calls overlap.
    ///
    /// - Complexity: O(1).
    @inlinable
    package func tryDequeueSingleConsumer() -> PendingLink? {
        _withSingleConsumerDequeueClaim(_Unscheduled()) { $0.move() }
    }

    /// Claims the oldest published position (any number of consumers) and calls `body` with its
    /// payload, which `body` must leave uninitialized (moved out or consumed); the slot is freed
    /// after `body` returns or throws. `nil` without calling `body` when there is nothing to take.
    @inlinable @inline(__always)
    func _withDequeueClaim<Result: ~Copyable, Failure: Error>(
        _ body: (UnsafeMutablePointer<PendingLink>) throws(Failure) -> Result
    ) throws(Failure) -> Result? {
        try _storage.withUnsafeHandle { handle throws(Failure) -> Result? in
            guard let claim = handle.claimDequeuePosition(_Unscheduled()) else { return nil }
            // The slot is freed only after `body` is done with the payload.
            defer { handle.free(claim, _Unscheduled()) }
            return try body(claim.slot.payload)
        }
    }

    /// ``_withDequeueClaim(_:)`` for the single consumer: no compare-exchange; debug builds trap
    /// when two single-consumer calls overlap.
    @inlinable @inline(__always)
    func _withSingleConsumerDequeueClaim<Points: _SchedulePoints, Result: ~Copyable, Failure: Error>(
        _ points: Points,
        _ body: (UnsafeMutablePointer<PendingLink>) throws(Failure) -> Result
    ) throws(Failure) -> Result? {
        try _storage.withUnsafeHandle { handle throws(Failure) -> Result? in
            #if DEBUG
            handle.enterSingleConsumer()
            defer { handle.leaveSingleConsumer() }
            #endif
            guard let claim = handle.claimDequeuePositionAsSingleConsumer(points) else { return nil }
            defer { handle.free(claim, points) }
            return try body(claim.slot.payload)
        }
    }

    /// Moves the record at `payload` into `link`: one copy, with no temporary in between (a record
    /// of plain bytes: the slot needs no deinitialization).
    @inlinable @inline(__always)
    static func _move(from payload: UnsafeMutablePointer<PendingLink>, into link: inout PendingLink) {
        // An assignment copies the record's size; `moveUpdate(from:count: 1)` would write a whole
        // stride into `link`, past its end when the size is not a multiple of the alignment.
        link = payload.pointee
    }

    /// Calls `body` with a borrow of the record at `payload`, then ends the record's lifetime
    /// there (whether or not `body` throws), leaving `payload` uninitialized.
    @inlinable @inline(__always)
    static func _consume<Result: ~Copyable, Failure: Error>(
        _ payload: UnsafeMutablePointer<PendingLink>,
        _ body: (borrowing PendingLink) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        defer { payload.deinitialize(count: 1) }
        return try body(payload.pointee)
    }

    /// The number of links in the queue at some recent moment, in `0...capacity`. Exact when no
    /// other thread is enqueueing or dequeueing; otherwise a snapshot that may already be stale
    /// (for metrics and tests, never for deciding whether an operation will succeed).
    ///
    /// - Complexity: O(1).
    package var approximateCount: Int { _approximateCount(_Unscheduled()) }

    /// ``approximateCount`` through `points` (the resolver's: its schedule points).
    @inline(__always)
    package func _approximateCount<Points: _SchedulePoints>(_ points: Points) -> Int {
        points.reach(.queueCount)
        return _storage.withUnsafeHandle { handle in
            // Head first: the tail never trails the head, so a later tail read keeps the difference
            // non-negative; relaxed loads of two words may still disagree on weakly ordered CPUs,
            // hence the clamp.
            let head = handle.dequeuePosition.pointee.load(ordering: .relaxed)
            let tail = handle.enqueuePosition.pointee.load(ordering: .relaxed)
            return min(max(Int(bitPattern: tail &- head), 0), handle.capacity)
        }
    }
}
