/// A named error reading a histogram's serialised form.
///
/// Thread safety: an immutable value.
package enum HistogramDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A `lower:count` pair that is not two unsigned integers separated by `:`.
    case malformedBucket(String)
    /// A lower bound that is not the start of a bucket of the fixed layout.
    case notABucketBoundary(UInt64)
    /// The same bucket listed twice.
    case duplicateBucket(UInt64)
    /// The stated count differs from the sum of the bucket counts.
    case countMismatch(stated: UInt64, buckets: UInt64)
    /// min/max inconsistent with the buckets (min above max, or outside the first/last bucket).
    case inconsistentExtremes(min: UInt64, max: UInt64)

    package var description: String {
        switch self {
        case .malformedBucket(let text): "malformed histogram bucket '\(text)' (expected lower_ns:count)"
        case .notABucketBoundary(let value): "histogram bucket lower bound \(value) is not a bucket boundary"
        case .duplicateBucket(let value): "histogram bucket \(value) listed twice"
        case .countMismatch(let stated, let buckets):
            "histogram count \(stated) differs from the sum of its buckets \(buckets)"
        case .inconsistentExtremes(let min, let max): "histogram min \(min) / max \(max) inconsistent with its buckets"
        }
    }
}

extension Histogram {
    /// The exact serialised form: the non-empty buckets as space-separated `lower_ns:count` pairs in
    /// increasing order (empty string for an empty histogram). Together with ``count``, ``min`` and
    /// ``max`` it restores the histogram exactly (``init(count:min:max:encodedBuckets:)``).
    ///
    /// - Complexity: O(number of buckets).
    package var encodedBuckets: String {
        var parts: [String] = []
        for (index, bucketCount) in counts.enumerated() where bucketCount != 0 {
            parts.append("\(Self.lowestEquivalentValue(ofIndex: index)):\(bucketCount)")
        }
        return parts.joined(separator: " ")
    }

    /// The non-empty buckets: lowest value, highest value, count, in increasing order.
    package var nonEmptyBuckets: [(lower: UInt64, upper: UInt64, count: UInt64)] {
        counts.enumerated().compactMap { index, bucketCount in
            guard bucketCount != 0 else { return nil }
            return (
                Self.lowestEquivalentValue(ofIndex: index), Self.highestEquivalentValue(ofIndex: index), bucketCount
            )
        }
    }

    /// Restores a histogram from its serialised form (see ``encodedBuckets``), checking it.
    package init(count: UInt64, min: UInt64, max: UInt64, encodedBuckets: String) throws(HistogramDecodingError) {
        self.init()
        var total: UInt64 = 0
        var firstIndex = Int.max
        var lastIndex = -1
        for pair in encodedBuckets.split(separator: " ", omittingEmptySubsequences: true) {
            let fields = pair.split(separator: ":", omittingEmptySubsequences: false)
            guard fields.count == 2, let lower = UInt64(fields[0]), let bucketCount = UInt64(fields[1]),
                bucketCount > 0
            else { throw .malformedBucket(String(pair)) }
            guard lower <= Self.highestTrackableValue else { throw .notABucketBoundary(lower) }
            let index = Self.countsIndex(for: lower)
            guard Self.lowestEquivalentValue(ofIndex: index) == lower else { throw .notABucketBoundary(lower) }
            guard counts[index] == 0 else { throw .duplicateBucket(lower) }
            counts[index] = bucketCount
            let (sum, overflow) = total.addingReportingOverflow(bucketCount)
            guard !overflow else { throw .countMismatch(stated: count, buckets: .max) }
            total = sum
            firstIndex = Swift.min(firstIndex, index)
            lastIndex = Swift.max(lastIndex, index)
        }
        guard total == count else { throw .countMismatch(stated: count, buckets: total) }
        if count == 0 {
            guard min == 0, max == 0 else { throw .inconsistentExtremes(min: min, max: max) }
            return
        }
        guard min <= max, Self.countsIndex(for: min) == firstIndex, Self.countsIndex(for: max) == lastIndex else {
            throw .inconsistentExtremes(min: min, max: max)
        }
        self.count = count
        self.lowest = min
        self.highest = max
        #if DEBUG
        _checkInvariants()
        #endif
    }
}

extension Histogram: Equatable {
    /// Equal when they hold the same counts in every bucket and the same exact min and max.
    package static func == (lhs: Histogram, rhs: Histogram) -> Bool {
        lhs.count == rhs.count && lhs.min == rhs.min && lhs.max == rhs.max && lhs.counts == rhs.counts
    }
}
