import DeepLinkHarness

/// `Histogram(count:min:max:encodedBuckets:)`, the histogram columns of report and baseline CSVs:
/// any text decodes or fails with a named `HistogramDecodingError`; a decoded histogram keeps its
/// stated count and extremes, re-encodes to itself, and answers every percentile within
/// [min, max], monotonically.
///
/// Input: the first byte picks a mode:
/// - stated: count, min and max (8 bytes each), then the bucket text;
/// - derived: the bucket text only; count, min and max are derived from it so decoding gets past
///   the consistency checks;
/// - recorded: values and repetitions are recorded, encoded and decoded again.
enum HistogramFuzzer {
    /// Few percentiles: each one walks all 37,888 buckets, which dominates an execution.
    static let percentiles: [Double] = [-1, 0, 50, 99.9, 100, .infinity]

    static func run(_ input: UnsafeRawBufferPointer) {
        var cursor = FuzzInput(input)
        switch cursor.byte() % 3 {
        case 0:
            let count = cursor.uint64()
            let min = cursor.uint64()
            let max = cursor.uint64()
            checkDecode(count: count, min: min, max: max, text: String(decoding: cursor.rest(), as: UTF8.self))
        case 1:
            let text = String(decoding: cursor.rest(), as: UTF8.self)
            let (count, min, max) = derivedStatistics(text)
            checkDecode(count: count, min: min, max: max, text: text)
        default:
            checkRecorded(&cursor)
        }
    }

    /// The sum of the counts (wrapping) and the smallest and largest lower bound in `text`,
    /// read leniently.
    static func derivedStatistics(_ text: String) -> (UInt64, UInt64, UInt64) {
        var count: UInt64 = 0
        var lowers: [UInt64] = []
        for pair in text.split(separator: " ") {
            let fields = pair.split(separator: ":", omittingEmptySubsequences: false)
            guard fields.count == 2, let lower = UInt64(fields[0]), let bucketCount = UInt64(fields[1]) else {
                continue
            }
            count &+= bucketCount
            lowers.append(lower)
        }
        return (count, lowers.min() ?? 0, lowers.max() ?? 0)
    }

    static func checkDecode(count: UInt64, min: UInt64, max: UInt64, text: String) {
        let histogram: Histogram
        do {
            histogram = try Histogram(count: count, min: min, max: max, encodedBuckets: text)
        } catch {
            fuzzCheck(!error.description.isEmpty, "an error without a description")
            return
        }
        fuzzCheck(histogram.count == count, "count changed")
        fuzzCheck(histogram.min == (count == 0 ? 0 : min) && histogram.max == max, "extremes changed")
        checkDecoded(histogram)
    }

    static func checkDecoded(_ histogram: Histogram) {
        let encoded = histogram.encodedBuckets
        let again = try? Histogram(
            count: histogram.count,
            min: histogram.min,
            max: histogram.max,
            encodedBuckets: encoded
        )
        fuzzCheck(again == histogram, "a decoded histogram does not re-encode to itself: \(encoded)")
        // Each walk over the 37,888 buckets is slow in a debug ASan build, so walk as few as possible.
        let buckets = histogram.nonEmptyBuckets
        fuzzCheck(zip(buckets, buckets.dropFirst()).allSatisfy { $0.upper < $1.lower }, "buckets out of order")
        fuzzCheck(buckets.allSatisfy { $0.lower <= $0.upper && $0.count > 0 }, "a bad bucket")
        var previous: UInt64 = 0
        for p in percentiles.filter({ !$0.isNaN }).sorted() {
            let value = histogram.value(atPercentile: p)
            if histogram.count == 0 {
                fuzzCheck(value == 0, "an empty histogram's percentile is not 0")
                continue
            }
            fuzzCheck(value >= histogram.min && value <= histogram.max, "p\(p) = \(value) outside [min, max]")
            fuzzCheck(value >= previous, "percentiles are not monotonic at p\(p)")
            previous = value
            let rank = Histogram.rank(ofPercentile: p, count: histogram.count)
            fuzzCheck(rank >= 1 && rank <= histogram.count, "rank \(rank) outside 1...count")
        }
        fuzzCheck(histogram.value(atPercentile: .nan) == histogram.value(atPercentile: 0), "NaN does not read as 0")
    }

    static func checkRecorded(_ cursor: inout FuzzInput) {
        var histogram = Histogram()
        while !cursor.isEmpty {
            let shift = UInt64(cursor.choose(64))
            let value = cursor.uint64() >> shift
            let times = UInt64(cursor.byte())
            histogram.record(value, times: times)
        }
        let decoded = try? Histogram(
            count: histogram.count,
            min: histogram.min,
            max: histogram.max,
            encodedBuckets: histogram.encodedBuckets
        )
        fuzzCheck(decoded == histogram, "a recorded histogram does not survive encoding")
    }
}
