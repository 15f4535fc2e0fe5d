import DeepLinkHarness
import SanitizerTraits
import Testing

/// A small deterministic generator (SplitMix64) so the random tests are reproducible.
struct TestRandom {
    var generator: SplitMix64

    init(state: UInt64) { generator = SplitMix64(seed: state) }

    mutating func next() -> UInt64 { generator.next() }

    /// A value spread over magnitudes: a random bit length, then random bits below it.
    mutating func logUniform(maxBits: UInt64) -> UInt64 {
        let bits = next() % (maxBits + 1)
        guard bits > 0 else { return 0 }
        return next() & ((1 << bits) - 1)
    }
}

@Suite(.startsNoThread) struct HistogramTests {
    /// Values a histogram must hold within 0.1 %: small exact ones, powers of ten and two and their
    /// neighbours up to one hour, and the largest trackable value.
    static let magnitudes: [UInt64] = {
        var values: [UInt64] = [0, 1, 2, 999, 1000, 1023, 1024, 2047, 2048, 2049, 4095, 4096, 123_456_789]
        var power: UInt64 = 10
        while power <= 3_600_000_000_000 {
            values += [power - 1, power, power + 1, power * 3 + 7]
            power *= 10
        }
        for shift in 11..<46 { values += [(1 << UInt64(shift)) - 1, 1 << UInt64(shift), (1 << UInt64(shift)) + 1] }
        values += [3_600_000_000_000, Histogram.highestTrackableValue]
        return values
    }()

    @Test func everyRecordedValueReadsBackWithinOneThousandth() {
        for value in Self.magnitudes {
            var histogram = Histogram()
            histogram.record(value)
            // A lone value is min and max, so test the bucket itself as well as the clamped reads.
            let range = Histogram.bucketRange(containing: value)
            #expect(range.contains(value), "\(value) outside its bucket \(range)")
            let width = Double(range.upperBound - range.lowerBound)
            #expect(width <= Double(value) * 0.001, "bucket of \(value) is \(width) wide")
            #expect(histogram.value(atPercentile: 50) == value)
            #expect(histogram.count == 1 && histogram.min == value && histogram.max == value)
        }
    }

    @Test func valuesInsideOneBucketReadBackWithinOneThousandth() {
        // Two values in the same bucket: the lower one's percentile reads the bucket's top, clamped
        // to max, so the error is at most the bucket width.
        for value in Self.magnitudes where value > 2048 && value < Histogram.highestTrackableValue {
            let range = Histogram.bucketRange(containing: value)
            var histogram = Histogram()
            histogram.record(range.lowerBound)
            histogram.record(range.upperBound)
            histogram.record(Histogram.highestTrackableValue)
            let read = histogram.value(atPercentile: 1)
            let error = Double(read) - Double(range.lowerBound)
            #expect(error >= 0 && error <= Double(range.lowerBound) * 0.001, "\(value): read \(read)")
        }
    }

    @Test func percentilesMatchSortedReferenceOnRandomData() {
        var random = TestRandom(state: 42)
        for round in 0..<5 {
            let count = [1, 2, 17, 1000, 20_000][round]
            var values: [UInt64] = []
            var histogram = Histogram()
            for _ in 0..<count {
                let value = random.logUniform(maxBits: 42)
                values.append(value)
                histogram.record(value)
            }
            values.sort()
            #expect(histogram.count == UInt64(count))
            #expect(histogram.min == values.first && histogram.max == values.last)
            for p in [0, 0.1, 1, 10, 25, 50, 75, 90, 99, 99.9, 99.99, 100] as [Double] {
                let rank = max(1, min(count, Int((p / 100 * Double(count) - 1e-9).rounded(.up))))
                let reference = values[rank - 1]
                let read = histogram.value(atPercentile: p)
                let tolerance = Double(reference) * 0.001
                #expect(
                    abs(Double(read) - Double(reference)) <= tolerance,
                    "p\(p) of \(count): \(read) vs \(reference)"
                )
            }
        }
    }

    @Test func mergeEqualsRecordingEverything() {
        var random = TestRandom(state: 7)
        var parts = [Histogram(), Histogram(), Histogram()]
        var all = Histogram()
        for index in 0..<30_000 {
            let value = random.logUniform(maxBits: 44)
            parts[index % 3].record(value)
            all.record(value)
        }
        var merged = Histogram()
        for part in parts { merged.merge(part) }
        #expect(merged == all)
        #expect(merged.count == 30_000)
        for p in [0, 50, 99, 99.99, 100] as [Double] {
            #expect(merged.value(atPercentile: p) == all.value(atPercentile: p))
        }
        var withEmpty = all
        withEmpty.merge(Histogram())
        #expect(withEmpty == all)
    }

    @Test func emptyHistogramReadsZero() {
        let histogram = Histogram()
        #expect(histogram.count == 0 && histogram.min == 0 && histogram.max == 0)
        #expect(histogram.value(atPercentile: 99) == 0)
        #expect(histogram.encodedBuckets.isEmpty)
    }

    @Test func hugeCountsFromInputDoNotTrap() throws {
        let histogram = try Histogram(count: .max, min: 5, max: 5, encodedBuckets: "5:\(UInt64.max)")
        #expect(histogram.value(atPercentile: 100) == 5)
        #expect(histogram.value(atPercentile: 50) == 5)
        #expect(Histogram.rank(ofPercentile: 100, count: .max) == .max)
        #expect(Histogram.rank(ofPercentile: 50, count: 3) == 2)
        #expect(Histogram.rank(ofPercentile: .nan, count: 3) == 1)
    }

    @Test func valuesAboveTheTopAreCountedAndMaxStaysExact() {
        var histogram = Histogram()
        histogram.record(.max)
        histogram.record(5)
        #expect(histogram.count == 2)
        #expect(histogram.max == .max)
        #expect(histogram.value(atPercentile: 100) == .max)
        #expect(histogram.value(atPercentile: 50) == 5)
    }

    @Test func serialisedFormRestoresExactly() throws {
        var random = TestRandom(state: 99)
        var histogram = Histogram()
        for _ in 0..<5000 { histogram.record(random.logUniform(maxBits: 40)) }
        let restored = try Histogram(
            count: histogram.count,
            min: histogram.min,
            max: histogram.max,
            encodedBuckets: histogram.encodedBuckets
        )
        #expect(restored == histogram)
        let empty = try Histogram(count: 0, min: 0, max: 0, encodedBuckets: "")
        #expect(empty == Histogram())
    }

    @Test func serialisedFormErrorsAreNamed() {
        #expect(throws: HistogramDecodingError.malformedBucket("5")) {
            try Histogram(count: 1, min: 5, max: 5, encodedBuckets: "5")
        }
        #expect(throws: HistogramDecodingError.notABucketBoundary(4097)) {
            try Histogram(count: 1, min: 4097, max: 4097, encodedBuckets: "4097:1")
        }
        #expect(throws: HistogramDecodingError.duplicateBucket(7)) {
            try Histogram(count: 2, min: 7, max: 7, encodedBuckets: "7:1 7:1")
        }
        #expect(throws: HistogramDecodingError.countMismatch(stated: 3, buckets: 2)) {
            try Histogram(count: 3, min: 7, max: 8, encodedBuckets: "7:1 8:1")
        }
        #expect(throws: HistogramDecodingError.inconsistentExtremes(min: 9, max: 8)) {
            try Histogram(count: 2, min: 9, max: 8, encodedBuckets: "7:1 8:1")
        }
    }

    @Test func recordAllocatesNothing() {
        guard !Sanitizer.isActive else { return }
        #expect(AllocationCounter.isJemallocActive)
        var histogram = Histogram()
        histogram.record(1)  // the first write may not allocate either, but warm up anyway
        var random = TestRandom(state: 1)
        let values = (0..<10_000).map { _ in random.logUniform(maxBits: 46) }
        // Debug builds allocate for `for … in` iterators, so: an index loop.
        let bytes = AllocationCounter.bytesAllocated {
            var index = 0
            while index < values.count {
                histogram.record(values[index])
                index += 1
            }
        }
        #expect(bytes == 0, "record allocated \(bytes) bytes")
        #expect(histogram.count == 10_001)
    }
}
