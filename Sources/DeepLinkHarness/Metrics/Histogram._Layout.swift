// The fixed bucket layout: value ↔ counts-array index. Counts index `i` holds values of bucket
// `b = i >> 10 - 1` (or 0 for the first 2048 linear slots), each of width `2^b`.
extension Histogram {
    /// The power-of-two range a value falls in (0 for values below 2048).
    @inline(__always)
    static func bucketIndex(for value: UInt64) -> Int {
        let pow2Ceiling = 64 - (value | subBucketMask).leadingZeroBitCount
        return pow2Ceiling - (subBucketHalfCountMagnitude + 1)
    }

    /// The index into `counts` for `value`; values above ``highestTrackableValue`` map to the top.
    @inline(__always)
    static func countsIndex(for value: UInt64) -> Int {
        let clamped = value > highestTrackableValue ? highestTrackableValue : value
        let bucket = bucketIndex(for: clamped)
        let subBucket = Int(truncatingIfNeeded: clamped >> UInt64(bucket))
        return ((bucket + 1) << subBucketHalfCountMagnitude) + (subBucket - subBucketHalfCount)
    }

    /// The smallest value that maps to counts index `index`.
    static func lowestEquivalentValue(ofIndex index: Int) -> UInt64 {
        var bucket = (index >> subBucketHalfCountMagnitude) - 1
        var subBucket = (index & (subBucketHalfCount - 1)) + subBucketHalfCount
        if bucket < 0 {
            subBucket -= subBucketHalfCount
            bucket = 0
        }
        return UInt64(subBucket) << UInt64(bucket)
    }

    /// The number of distinct values that map to counts index `index` (the bucket width).
    static func bucketWidth(ofIndex index: Int) -> UInt64 {
        let bucket = Swift.max((index >> subBucketHalfCountMagnitude) - 1, 0)
        return 1 << UInt64(bucket)
    }

    /// The largest value that maps to counts index `index`.
    static func highestEquivalentValue(ofIndex index: Int) -> UInt64 {
        lowestEquivalentValue(ofIndex: index) + bucketWidth(ofIndex: index) - 1
    }

    /// The lowest and highest value of the bucket `value` falls in.
    package static func bucketRange(containing value: UInt64) -> ClosedRange<UInt64> {
        let index = countsIndex(for: value)
        return lowestEquivalentValue(ofIndex: index)...highestEquivalentValue(ofIndex: index)
    }

    #if DEBUG
    /// Checks that the count equals the sum of the buckets and min/max agree with emptiness.
    func _checkInvariants() {
        let total = counts.reduce(0 as UInt64, &+)
        precondition(total == count, "histogram count \(count) != bucket total \(total)")
        precondition(count == 0 || lowest <= highest, "histogram min above max")
    }
    #endif
}
