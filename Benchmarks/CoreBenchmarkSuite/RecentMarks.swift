import DeepLinkCore

/// The last ``capacity`` consumed marks (older ones are forgotten), answering "is this the same
/// capture as a mark?" (``CaptureIdentity/isSameCapture(as:)``) by two keyed lookups: one by id,
/// one by install-begin timestamp.
///
/// The ring and the key tables are buffers this value allocates once and owns (freed in `deinit`):
/// every access is a plain load or store, where arrays would check uniqueness and bounds on every
/// write, and an `InlineArray` property read through a borrowed `self` is copied whole.
///
/// Thread safety: a value type; its owner serializes access.
struct RecentMarks: ~Copyable {
    static let capacity = 64

    private let ring: UnsafeMutablePointer<CaptureIdentity>
    /// Bit `i` is set when `ring[i]` is a live mark (a removed or never-written one is not).
    private var live: UInt64 = 0
    private var next = 0
    private var ids = CountedKeys()
    private var timestamps = CountedKeys()

    init() {
        ring = .allocate(capacity: Self.capacity)
        ring.initialize(repeating: CaptureIdentity(id: 0, installBeginTimestamp: 0), count: Self.capacity)
    }

    deinit { ring.deallocate() }

    /// Adds the mark of `identity`, forgetting the oldest mark when all ``capacity`` are in use.
    mutating func insert(_ identity: CaptureIdentity) {
        let slot = next
        if isLive(slot) { forget(at: slot) }
        ring[slot] = identity
        live |= 1 << UInt64(slot)
        ids.insert(identity.id)
        if identity.installBeginTimestamp != 0 { timestamps.insert(identity.installBeginTimestamp) }
        next = slot == Self.capacity - 1 ? 0 : slot + 1
    }

    /// Removes every mark equal to `identity` (a link put back as pending).
    mutating func remove(_ identity: CaptureIdentity) {
        var remaining = live
        while remaining != 0 {
            let slot = remaining.trailingZeroBitCount
            remaining &= remaining - 1
            if ring[slot] == identity { forget(at: slot) }
        }
    }

    /// Whether some mark is the same capture as `identity`: the same id, or the same nonzero
    /// install-begin timestamp (``CaptureIdentity/isSameCapture(as:)``).
    func containsSameCapture(as identity: CaptureIdentity) -> Bool {
        ids.contains(identity.id)
            || (identity.installBeginTimestamp != 0 && timestamps.contains(identity.installBeginTimestamp))
    }

    private func isLive(_ slot: Int) -> Bool { live & (1 << UInt64(slot)) != 0 }

    private mutating func forget(at slot: Int) {
        let old = ring[slot]
        live &= ~(1 << UInt64(slot))
        ids.remove(old.id)
        if old.installBeginTimestamp != 0 { timestamps.remove(old.installBeginTimestamp) }
    }
}

/// A multiset of up to 64 `UInt64` keys in a 128-slot open-addressing table (linear probing,
/// backward-shift deletion, so lookups never wade through tombstones), in one buffer this value
/// owns.
///
/// Thread safety: a value type; its owner serializes access.
struct CountedKeys: ~Copyable {
    private struct Slot {
        var key: UInt64
        /// How many times `key` is in the set; 0 marks a free slot.
        var count: UInt64
    }

    private static let slotCount = 128
    private let slots: UnsafeMutablePointer<Slot>

    init() {
        slots = .allocate(capacity: Self.slotCount)
        slots.initialize(repeating: Slot(key: 0, count: 0), count: Self.slotCount)
    }

    deinit { slots.deallocate() }

    /// Where `key` starts probing (Fibonacci hashing: consecutive ids spread out).
    private static func home(_ key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 57)
    }

    /// The slot holding `key`, or the free slot where it would go (one always exists: at most 64
    /// keys live in 128 slots).
    private func slot(of key: UInt64) -> Int {
        var index = Self.home(key)
        while slots[index].count != 0, slots[index].key != key { index = (index + 1) & (Self.slotCount - 1) }
        return index
    }

    func contains(_ key: UInt64) -> Bool { slots[slot(of: key)].count != 0 }

    /// Adds one `key`.
    mutating func insert(_ key: UInt64) {
        let index = slot(of: key)
        slots[index].key = key
        slots[index].count += 1
    }

    /// Removes one `key`, if present.
    mutating func remove(_ key: UInt64) {
        var hole = slot(of: key)
        guard slots[hole].count != 0 else { return }
        slots[hole].count -= 1
        guard slots[hole].count == 0 else { return }
        // Backward shift: pull later entries of the probe run into the hole when their home slot
        // does not lie (cyclically) after the hole.
        var index = hole
        while true {
            index = (index + 1) & (Self.slotCount - 1)
            guard slots[index].count != 0 else { return }
            let home = Self.home(slots[index].key)
            let distanceToHome = (index - home) & (Self.slotCount - 1)
            let distanceToHole = (index - hole) & (Self.slotCount - 1)
            if distanceToHome >= distanceToHole {
                slots[hole] = slots[index]
                slots[index].count = 0
                hole = index
            }
        }
    }
}
