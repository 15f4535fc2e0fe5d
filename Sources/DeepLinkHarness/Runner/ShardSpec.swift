/// One of `count` disjoint slices of a run's journey index space (`deeplink-bench run --shard i/n`,
/// `i` counted from 0).
///
/// Shard `i` of `n` over `N` journeys is the contiguous index range
/// `[⌊i·N/n⌋, ⌊(i+1)·N/n⌋)`: the ranges of shards `0..<n` are disjoint, adjacent and together
/// exactly `0..<N`, and their sizes differ by at most one. Each journey is generated from
/// `(seed, index)`, so a shard regenerates its slice alone and `deeplink-bench merge` of all `n`
/// shards reproduces the unsharded run's counters and histogram counts exactly.
///
/// Text form: `i/n`, ASCII digits only (no sign, no spaces), `0 ≤ i < n ≤ ``maximumCount```. The
/// same text is recorded in the manifest (`shard`) and checked by ``ReportMerger``.
///
/// Thread safety: a value type; `Sendable`.
package struct ShardSpec: Sendable, Hashable {
    /// This shard's position, `0..<count`.
    package let index: Int
    /// How many shards the run is split into.
    package let count: Int

    /// The largest shard count accepted (far beyond any job engine's parallelism).
    package static let maximumCount = 1_000_000

    /// A shard, or `nil` unless `0 ≤ index < count ≤ maximumCount`.
    package init?(index: Int, count: Int) {
        guard count >= 1, count <= Self.maximumCount, index >= 0, index < count else { return nil }
        self.index = index
        self.count = count
    }

    /// The whole run as one shard (`0/1`).
    package static let whole = ShardSpec(uncheckedIndex: 0, count: 1)

    private init(uncheckedIndex index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// Parses `i/n` strictly: see the type's documentation for the accepted form.
    package static func parse(_ text: String) throws(ShardSpecError) -> ShardSpec {
        let parts = text.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard parts.count == 2, let index = decimal(parts[0]), let count = decimal(parts[1]) else {
            throw .malformed(text)
        }
        guard count >= 1, count <= maximumCount else { throw .countOutOfRange(text) }
        guard index < count else { throw .indexOutOfRange(text) }
        return ShardSpec(uncheckedIndex: index, count: count)
    }

    /// 1 to 7 ASCII digits as an integer (enough for `maximumCount`; longer is out of range anyway
    /// and is reported as such by returning a value above it).
    private static func decimal(_ digits: Substring.UTF8View) -> Int? {
        guard !digits.isEmpty else { return nil }
        var value = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            // Saturate: a huge number is still a number, just out of range.
            value = min(value * 10 + Int(byte - UInt8(ascii: "0")), maximumCount + 1)
        }
        return value
    }

    /// The journey indices (offsets from the run's first index) this shard runs out of
    /// `journeys`: `[⌊i·N/n⌋, ⌊(i+1)·N/n⌋)`, empty when `journeys < count` leaves it nothing.
    ///
    /// - Complexity: O(1).
    package func range(ofJourneys journeys: UInt64) -> Range<UInt64> {
        Self.boundary(index, of: count, journeys: journeys)..<Self.boundary(index + 1, of: count, journeys: journeys)
    }

    /// `⌊k·N/n⌋` without overflow (128-bit intermediate).
    private static func boundary(_ k: Int, of count: Int, journeys: UInt64) -> UInt64 {
        let product = UInt64(k).multipliedFullWidth(by: journeys)
        // k ≤ count, so the quotient is at most `journeys` and fits.
        return UInt64(count).dividingFullWidth(product).quotient
    }
}
