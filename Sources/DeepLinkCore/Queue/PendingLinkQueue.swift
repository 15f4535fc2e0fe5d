import Synchronization

/// What ``PendingLinkQueue/tryEnqueue(_:)`` did with a link.
public enum EnqueueResult: Sendable, Equatable {
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
/// inline ``PendingLink`` (no references, ~540 bytes). Position `p` lives in slot `p & (capacity - 1)`.
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
/// No heap allocation after `init`: enqueue copies the record into its slot and dequeue moves it
/// out (both O(size of `PendingLink`)). The allocation is 256 bytes of positions plus
/// `capacity` slots of 576 bytes (an 8-byte sequence and the 544-byte record, rounded up to whole
/// 64-byte lines).
///
/// Thread safety: `Sendable`. ``tryEnqueue(_:)``, ``tryDequeue()`` and ``approximateCount`` may
/// be called from any number of threads at once. ``tryDequeueSingleConsumer()`` may be used by
/// only one thread at a time, and never concurrently with ``tryDequeue()`` (debug builds trap
/// when two threads overlap in it).
///
/// - Complexity: `tryEnqueue`, `tryDequeue` and `tryDequeueSingleConsumer` are O(1) plus retries
///   under contention; `init` is O(capacity).
public final class PendingLinkQueue: Sendable {
    /// The largest capacity accepted: 2^20 slots (about 600 MB of slots). A pending-link queue
    /// holds links waiting for one app's resolver; more than this is a configuration mistake.
    public static let maximumCapacity = 1 << 20

    let _storage: _Storage

    /// The number of slots, a power of two fixed at creation.
    public var capacity: Int { _storage.capacity }

    /// Whether `capacity` is accepted by ``init(capacity:)``: a power of two in
    /// `1...maximumCapacity`.
    public static func isValidCapacity(_ capacity: Int) -> Bool {
        capacity >= 1 && capacity <= maximumCapacity && capacity & (capacity - 1) == 0
    }

    /// Creates an empty queue with room for `capacity` links, allocating all its memory now.
    ///
    /// - Precondition: `capacity` is a power of two in `1...maximumCapacity`. For a capacity that
    ///   comes from input, use ``init(validatingCapacity:)``.
    /// - Complexity: O(capacity).
    public convenience init(capacity: Int) {
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
    public convenience init?(validatingCapacity capacity: Int) {
        guard Self.isValidCapacity(capacity) else { return nil }
        self.init(_unchecked: capacity, startingPosition: 0)
    }

    /// Testing: a queue whose positions start at `startingPosition` instead of 0, so that tests
    /// can drive the counters across their wrap-around (`UInt.max` to 0) quickly.
    ///
    /// - Precondition: as ``init(capacity:)``.
    @_spi(Testing)
    public convenience init(capacity: Int, startingPosition: UInt) {
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

    /// Appends `link` if a slot is free; never blocks.
    ///
    /// - Returns: ``EnqueueResult/enqueued``, or ``EnqueueResult/full`` when every slot holds a
    ///   link (or the next slot's previous link is still being moved out by a consumer); then
    ///   `link` was not stored.
    /// - Complexity: O(1) plus retries when other producers claim positions concurrently.
    public func tryEnqueue(_ link: PendingLink) -> EnqueueResult {
        _storage.withUnsafeHandle { handle in
            guard let claim = handle.claimEnqueuePosition() else { return .full }
            claim.slot.payload.initialize(to: link)
            handle.publish(claim)
            return .enqueued
        }
    }

    /// Removes and returns the oldest link, or `nil` when the queue is empty; never blocks. Any
    /// number of threads may call it at once.
    ///
    /// - Complexity: O(1) plus retries when other consumers claim positions concurrently.
    public func tryDequeue() -> PendingLink? {
        _storage.withUnsafeHandle { handle -> PendingLink? in
            guard let claim = handle.claimDequeuePosition() else { return nil }
            // The slot is freed only after the payload has been moved into the result.
            defer { handle.free(claim) }
            return claim.slot.payload.move()
        }
    }

    /// Removes and returns the oldest link, or `nil` when the queue is empty, without a
    /// compare-exchange; never blocks.
    ///
    /// Only one thread may consume through this method at a time, and ``tryDequeue()`` must not
    /// run concurrently with it (the head position is written with a plain store). Producers may
    /// run concurrently as usual. Debug builds trap when two calls overlap.
    ///
    /// - Complexity: O(1).
    public func tryDequeueSingleConsumer() -> PendingLink? {
        _storage.withUnsafeHandle { handle -> PendingLink? in
            #if DEBUG
            let wasConsuming = handle.singleConsumerGuard.pointee.exchange(true, ordering: .acquiring)
            precondition(!wasConsuming, "PendingLinkQueue.tryDequeueSingleConsumer called from two threads at once")
            defer { handle.singleConsumerGuard.pointee.store(false, ordering: .releasing) }
            #endif
            guard let claim = handle.claimDequeuePositionAsSingleConsumer() else { return nil }
            defer { handle.free(claim) }
            return claim.slot.payload.move()
        }
    }

    /// The number of links in the queue at some recent moment, in `0...capacity`. Exact when no
    /// other thread is enqueueing or dequeueing; otherwise a snapshot that may already be stale
    /// (for metrics and tests, never for deciding whether an operation will succeed).
    ///
    /// - Complexity: O(1).
    public var approximateCount: Int {
        _storage.withUnsafeHandle { handle in
            // Head first: the tail never trails the head, so a later tail read keeps the difference
            // non-negative; relaxed loads of two words may still disagree on weakly ordered CPUs,
            // hence the clamp.
            let head = handle.dequeuePosition.pointee.load(ordering: .relaxed)
            let tail = handle.enqueuePosition.pointee.load(ordering: .relaxed)
            return min(max(Int(bitPattern: tail &- head), 0), handle.capacity)
        }
    }
}
