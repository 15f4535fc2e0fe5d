/// A log-linear latency histogram in the style of HdrHistogram: 3 significant decimal digits over
/// values from 0 to ``highestTrackableValue`` nanoseconds (about 19.5 hours), with a fixed bucket
/// layout, so that two histograms merge exactly by adding their counts.
///
/// Layout: values below 2048 have one bucket each (exact). Above, each power-of-two range
/// `[1024·2^k, 2048·2^k)` is split into 1024 buckets of width `2^k`, so a bucket is never wider than
/// 1/1024 of the values in it: any value read back is within 0.098 % of a recorded one. Values above
/// ``highestTrackableValue`` are counted in the top bucket (``max`` still records them exactly).
///
/// ``value(atPercentile:)`` returns the highest value equivalent to the bucket holding the
/// percentile's rank, clamped to the exact ``min`` and ``max``: percentile 0 is ``min`` and
/// percentile 100 is ``max``, exactly.
///
/// The counts array is allocated once, at `init` (about 300 KB); ``record(_:)`` never allocates.
/// The exact serialised form (``encodedBuckets``, ``init(count:min:max:encodedBuckets:)``) keeps
/// non-empty buckets only, so shard reports can be merged exactly later.
///
/// Thread safety: a value type; record into one histogram per thread and ``merge(_:)`` them after.
/// Copies share storage until one of them is mutated (copy on write).
package struct Histogram: Sendable {
    // The layout constants are computed properties, not `static let`s: without whole-module
    // optimisation a `static let` is a lazily initialised global checked on every read (measured:
    // record went from ~16 ns to ~3 ns only once WMO folded them; literals fold either way).

    /// Buckets per power-of-two range above the linear range (2^10); 2·1024 ≥ 2·10^3 gives 3
    /// significant decimal digits.
    @inline(__always) static var subBucketHalfCountMagnitude: Int { 10 }
    @inline(__always) static var subBucketHalfCount: Int { 1 << 10 }
    @inline(__always) static var subBucketCount: Int { 2 << 10 }
    @inline(__always) static var subBucketMask: UInt64 { (2 << 10) - 1 }
    /// Power-of-two ranges tracked: the top range ends at 2^46 ns (about 19.5 hours).
    @inline(__always) static var bucketCount: Int { 36 }
    @inline(__always) static var countsLength: Int { (36 + 1) << 10 }

    /// The largest value with its own bucket: 2^46 − 1 ns, about 19.5 hours. Larger values are
    /// counted in the top bucket.
    package static var highestTrackableValue: UInt64 { (1 << 46) - 1 }

    var counts: [UInt64]
    /// Number of values recorded.
    package internal(set) var count: UInt64
    var lowest: UInt64
    var highest: UInt64

    /// An empty histogram.
    ///
    /// - Complexity: O(number of buckets): allocates and zeroes the counts array once.
    package init() {
        counts = [UInt64](repeating: 0, count: Self.countsLength)
        count = 0
        lowest = .max
        highest = 0
    }

    /// The smallest value recorded, exactly; 0 when empty.
    package var min: UInt64 { count == 0 ? 0 : lowest }

    /// The largest value recorded, exactly; 0 when empty.
    package var max: UInt64 { highest }

    /// Records one value (nanoseconds).
    ///
    /// - Complexity: O(1); never allocates (the storage is uniquely owned after the first write).
    @inlinable
    package mutating func record(_ valueNanos: UInt64) {
        recordValue(valueNanos, times: 1)
    }

    /// Records `value` `times` times.
    ///
    /// - Complexity: O(1).
    package mutating func record(_ valueNanos: UInt64, times: UInt64) {
        guard times > 0 else { return }
        recordValue(valueNanos, times: times)
    }

    @usableFromInline
    mutating func recordValue(_ value: UInt64, times: UInt64) {
        counts[Self.countsIndex(for: value)] &+= times
        count &+= times
        if value < lowest { lowest = value }
        if value > highest { highest = value }
    }

    /// Adds every value of `other` to this histogram. The layout is fixed, so the result is
    /// exactly the histogram of all values recorded into either.
    ///
    /// - Complexity: O(number of buckets).
    package mutating func merge(_ other: Histogram) {
        guard other.count > 0 else { return }
        counts.withUnsafeMutableBufferPointer { mine in
            other.counts.withUnsafeBufferPointer { theirs in
                for index in 0..<Swift.min(mine.count, theirs.count) where theirs[index] != 0 {
                    mine[index] &+= theirs[index]
                }
            }
        }
        count &+= other.count
        lowest = Swift.min(lowest, other.lowest)
        highest = Swift.max(highest, other.highest)
        #if DEBUG
        _checkInvariants()
        #endif
    }

    /// The value at percentile `p` (0…100; outside values are clamped): the highest value
    /// equivalent to the bucket holding the `ceil(p/100 · count)`-th smallest value (at least the
    /// first), clamped to [``min``, ``max``]. 0 when empty.
    ///
    /// - Complexity: O(number of buckets).
    package func value(atPercentile p: Double) -> UInt64 {
        guard count > 0 else { return 0 }
        let rank = Self.rank(ofPercentile: p, count: count)
        // The first and last ranks are the exact extremes.
        if rank == count { return max }
        if rank == 1 { return min }
        var cumulative: UInt64 = 0
        return counts.withUnsafeBufferPointer { buffer in
            for index in 0..<buffer.count where buffer[index] != 0 {
                cumulative &+= buffer[index]
                if cumulative >= rank {
                    // The top bucket also counts values above the trackable range.
                    if index == buffer.count - 1 { return max }
                    let value = Self.highestEquivalentValue(ofIndex: index)
                    return Swift.min(Swift.max(value, min), max)
                }
            }
            return max
        }
    }

    /// The 1-based rank of percentile `p` among `count` sorted values: `ceil(p/100 · count)`,
    /// at least 1 and at most `count`. `p` is clamped to 0…100 (NaN reads as 0).
    package static func rank(ofPercentile p: Double, count: UInt64) -> UInt64 {
        guard count > 0 else { return 0 }
        let clamped = p.isNaN ? 0 : Swift.min(Swift.max(p, 0), 100)
        // Rounded to 9 digits first so that 99.9 % of 1000 is 999, not 1000 (binary fractions).
        let exact = (clamped / 100 * Double(count) * 1e9).rounded() / 1e9
        // A count near UInt64.max reads as 2^64 in a Double; converting that would trap.
        let upper = exact.rounded(.up)
        guard upper < 0x1p64 else { return count }
        return Swift.min(Swift.max(UInt64(upper), 1), count)
    }
}
