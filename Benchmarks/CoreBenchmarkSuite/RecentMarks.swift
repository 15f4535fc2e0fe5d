import DeepLinkCore

/// The last ``capacity`` consumed marks (older ones are forgotten), answering "is this the same
/// capture as a mark?" (``CaptureIdentity/isSameCapture(as:)``) by two keyed lookups: one by id,
/// one by install-begin timestamp. (Arrays, allocated once: an `InlineArray` property read
/// through a borrowed `self` is copied whole per access.)
///
/// Thread safety: a value type; its owner serializes access.
struct RecentMarks: ~Copyable {
    static let capacity = 64

    private var ring = [CaptureIdentity](repeating: CaptureIdentity(id: 0, installBeginTimestamp: 0), count: 64)
    /// Whether each ring entry is a live mark (a removed or never-written one is not).
    private var live = [Bool](repeating: false, count: 64)
    private var next = 0
    private var ids = CountedKeys()
    private var timestamps = CountedKeys()

    /// Adds the mark of `identity`, forgetting the oldest mark when all ``capacity`` are in use.
    mutating func insert(_ identity: CaptureIdentity) {
        if live[next] { forget(at: next) }
        ring[next] = identity
        live[next] = true
        ids.insert(identity.id)
        if identity.installBeginTimestamp != 0 { timestamps.insert(identity.installBeginTimestamp) }
        next = (next + 1) % Self.capacity
    }

    /// Removes every mark equal to `identity` (a link put back as pending).
    mutating func remove(_ identity: CaptureIdentity) {
        for index in ring.indices where live[index] && ring[index] == identity { forget(at: index) }
    }

    /// Whether some mark is the same capture as `identity`: the same id, or the same nonzero
    /// install-begin timestamp (``CaptureIdentity/isSameCapture(as:)``).
    func containsSameCapture(as identity: CaptureIdentity) -> Bool {
        ids.contains(identity.id)
            || (identity.installBeginTimestamp != 0 && timestamps.contains(identity.installBeginTimestamp))
    }

    private mutating func forget(at index: Int) {
        let old = ring[index]
        live[index] = false
        ids.remove(old.id)
        if old.installBeginTimestamp != 0 { timestamps.remove(old.installBeginTimestamp) }
    }
}

/// A multiset of up to 64 `UInt64` keys in a 128-slot open-addressing table (linear probing,
/// backward-shift deletion, so lookups never wade through tombstones).
///
/// Thread safety: a value type; its owner serializes access.
struct CountedKeys: ~Copyable {
    private static let slots = 128
    private var keys = [UInt64](repeating: 0, count: 128)
    /// How many times each slot's key is in the set; 0 marks a free slot.
    private var counts = [UInt8](repeating: 0, count: 128)

    /// Where `key` starts probing (Fibonacci hashing: consecutive ids spread out).
    private static func home(_ key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 57)
    }

    /// The slot holding `key`, or the free slot where it would go.
    private func slot(of key: UInt64) -> Int {
        var index = Self.home(key)
        while counts[index] != 0, keys[index] != key { index = (index + 1) & (Self.slots - 1) }
        return index
    }

    func contains(_ key: UInt64) -> Bool { counts[slot(of: key)] != 0 }

    /// Adds one `key` (the set holds at most 64 in all, so a free slot always exists).
    mutating func insert(_ key: UInt64) {
        let index = slot(of: key)
        keys[index] = key
        counts[index] += 1
    }

    /// Removes one `key`, if present.
    mutating func remove(_ key: UInt64) {
        var hole = slot(of: key)
        guard counts[hole] != 0 else { return }
        counts[hole] -= 1
        guard counts[hole] == 0 else { return }
        // Backward shift: pull later entries of the probe run into the hole when their home slot
        // does not lie (cyclically) after the hole.
        var index = hole
        while true {
            index = (index + 1) & (Self.slots - 1)
            guard counts[index] != 0 else { return }
            let home = Self.home(keys[index])
            let distanceToHome = (index - home) & (Self.slots - 1)
            let distanceToHole = (index - hole) & (Self.slots - 1)
            if distanceToHome >= distanceToHole {
                keys[hole] = keys[index]
                counts[hole] = counts[index]
                counts[index] = 0
                hole = index
            }
        }
    }
}
