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
/// the slot's sequence — no fences, which ThreadSanitizer cannot model — so TSan sees no race.
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
/// the same side won the race for a position, so some thread always makes progress. Like every
/// Vyukov queue it is not strictly linearizable at the edges: while a producer that claimed
/// position `p` has not yet published it, consumers report the queue empty at `p` even if later
/// positions are ready, and while a consumer that claimed a slot has not yet freed it, producers
/// one lap ahead report full.
///
/// ## Memory
///
/// No heap allocation after `init`: enqueue copies the record into its slot and dequeue moves it
/// out (both O(size of `PendingLink`)).
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
    ///   link (or the slot one lap ahead is still being read by a consumer); then `link` was not
    ///   stored.
    /// - Complexity: O(1) plus retries when other producers claim positions concurrently.
    public func tryEnqueue(_ link: PendingLink) -> EnqueueResult {
        _storage.withUnsafeHandle { handle in
            let tail = handle.enqueuePosition
            var position = tail.pointee.load(ordering: .relaxed)
            while true {
                let slot = handle.slot(for: position)
                // Acquire: pairs with the release by which the previous lap's consumer freed the
                // slot, so its read of the old payload happens before our write.
                let sequence = slot.sequence.pointee.load(ordering: .acquiring)
                let lead = Int(bitPattern: sequence &- _UnsafeHandle.sequence(freeFor: position))
                if lead == 0 {
                    let (exchanged, current) = tail.pointee.weakCompareExchange(
                        expected: position,
                        desired: position &+ 1,
                        successOrdering: .relaxed,
                        failureOrdering: .relaxed
                    )
                    if exchanged {
                        slot.payload.initialize(to: link)
                        // Release: publishes the payload to the consumer that acquires `2p + 1`.
                        slot.sequence.pointee.store(_UnsafeHandle.sequence(holding: position), ordering: .releasing)
                        return .enqueued
                    }
                    position = current
                } else if lead < 0 {
                    // The slot still holds the element of position `p - capacity`: full.
                    return .full
                } else {
                    // Another producer took this position already; catch up.
                    position = tail.pointee.load(ordering: .relaxed)
                }
            }
        }
    }

    /// Removes and returns the oldest link, or `nil` when the queue is empty; never blocks. Any
    /// number of threads may call it at once.
    ///
    /// - Complexity: O(1) plus retries when other consumers claim positions concurrently.
    public func tryDequeue() -> PendingLink? {
        _storage.withUnsafeHandle { handle -> PendingLink? in
            let head = handle.dequeuePosition
            var position = head.pointee.load(ordering: .relaxed)
            while true {
                let slot = handle.slot(for: position)
                // Acquire: pairs with the producer's release of `2p + 1`, making its payload visible.
                let sequence = slot.sequence.pointee.load(ordering: .acquiring)
                let lead = Int(bitPattern: sequence &- _UnsafeHandle.sequence(holding: position))
                if lead == 0 {
                    let (exchanged, current) = head.pointee.weakCompareExchange(
                        expected: position,
                        desired: position &+ 1,
                        successOrdering: .relaxed,
                        failureOrdering: .relaxed
                    )
                    if exchanged {
                        let link = slot.payload.move()
                        // Release: orders our read before the next lap's producer writes the slot.
                        slot.sequence.pointee.store(
                            _UnsafeHandle.sequence(freeFor: position &+ UInt(handle.capacity)),
                            ordering: .releasing
                        )
                        return link
                    }
                    position = current
                } else if lead < 0 {
                    // Position `p` has not been published yet: empty.
                    return nil
                } else {
                    // Another consumer took this position already; catch up.
                    position = head.pointee.load(ordering: .relaxed)
                }
            }
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
            let head = handle.dequeuePosition
            // Relaxed: this thread is the only writer of the head.
            let position = head.pointee.load(ordering: .relaxed)
            let slot = handle.slot(for: position)
            // Acquire: pairs with the producer's release of `2p + 1`, making its payload visible.
            let sequence = slot.sequence.pointee.load(ordering: .acquiring)
            let lead = Int(bitPattern: sequence &- _UnsafeHandle.sequence(holding: position))
            guard lead == 0 else {
                assert(lead < 0, "PendingLinkQueue.tryDequeueSingleConsumer raced with another consumer")
                return nil
            }
            head.pointee.store(position &+ 1, ordering: .relaxed)
            let link = slot.payload.move()
            // Release: orders our read before the next lap's producer writes the slot.
            slot.sequence.pointee.store(
                _UnsafeHandle.sequence(freeFor: position &+ UInt(handle.capacity)),
                ordering: .releasing
            )
            return link
        }
    }

    /// The number of links in the queue at some recent moment, in `0...capacity`. Exact when no
    /// other thread is enqueueing or dequeueing; otherwise a snapshot that may already be stale
    /// (for metrics and tests, never for deciding whether an operation will succeed).
    ///
    /// - Complexity: O(1).
    public var approximateCount: Int {
        _storage.withUnsafeHandle { handle in
            // Head first: it only grows towards the tail, so a later tail read keeps the
            // difference from going negative in all but wrap-around-racing corner cases (clamped).
            let head = handle.dequeuePosition.pointee.load(ordering: .relaxed)
            let tail = handle.enqueuePosition.pointee.load(ordering: .relaxed)
            return min(max(Int(bitPattern: tail &- head), 0), handle.capacity)
        }
    }
}
