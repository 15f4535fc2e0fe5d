import Foundation

/// Chart points from a recorded ``Histogram``: the percentile spectrum (value against
/// `1/(1−p)`, as HdrHistogram's plotter draws it) and the distribution re-binned on a log axis.
/// Both are a bounded number of points whatever the run's size, which keeps report.html small.
///
/// Thread safety: stateless.
package enum LatencySeries {
    /// Points per decade of `1/(1−p)` in the spectrum.
    package static let spectrumPointsPerDecade = 12
    /// Bins per decade of nanoseconds in the distribution.
    package static let binsPerDecade = 16

    /// `(x = 1/(1−p), value_ns)` from p = 0 up to the highest percentile the count resolves
    /// (`x ≤ count`), ending with the maximum at `x = count`. The value at p is the histogram's
    /// (``Histogram/value(atPercentile:)``'s rule): the top of the bucket holding rank
    /// `ceil(p · count)`, clamped to the exact min and max. Empty for an empty histogram.
    package static func spectrum(_ histogram: Histogram) -> [(x: Double, y: Double)] {
        let count = histogram.count
        guard count > 0 else { return [] }
        let buckets = histogram.nonEmptyBuckets
        var targets: [(x: Double, rank: UInt64)] = []
        let limit = Double(count)
        var step = 0
        while true {
            let x = Foundation.pow(10, Double(step) / Double(spectrumPointsPerDecade))
            guard x < limit else { break }
            targets.append((x, Histogram.rank(ofPercentile: (1 - 1 / x) * 100, count: count)))
            step += 1
        }
        targets.append((Swift.max(limit, 1), count))
        var points: [(x: Double, y: Double)] = []
        var cumulative: UInt64 = 0
        var index = 0
        for target in targets {
            if target.rank <= 1 {
                points.append((target.x, Double(histogram.min)))
                continue
            }
            if target.rank >= count {
                points.append((target.x, Double(histogram.max)))
                continue
            }
            while index < buckets.count, cumulative &+ buckets[index].count < target.rank {
                cumulative &+= buckets[index].count
                index += 1
            }
            let upper = index < buckets.count ? buckets[index].upper : histogram.max
            points.append((target.x, Double(Swift.min(Swift.max(upper, histogram.min), histogram.max))))
        }
        return points
    }

    /// The spectrum from latency.csv's few percentiles, for reports without histograms.csv.
    package static func spectrum(percentiles: [(percentile: Double, value: Double)]) -> [(x: Double, y: Double)] {
        percentiles.filter { $0.percentile < 100 }.map { (1 / (1 - $0.percentile / 100), $0.value) }
    }

    /// The distribution as a step line: `(ns, percent of values)` per log bin
    /// (``binsPerDecade`` per decade) from the smallest to the largest bin recorded, empty bins
    /// included so that the line returns to zero between modes. Values of 0 ns fall in the 1 ns bin.
    package static func distribution(_ histogram: Histogram) -> [(x: Double, y: Double)] {
        guard histogram.count > 0 else { return [] }
        var bins: [Int: UInt64] = [:]
        for bucket in histogram.nonEmptyBuckets {
            bins[bin(of: Double(Swift.max(bucket.lower, 1))), default: 0] &+= bucket.count
        }
        guard let first = bins.keys.min(), let last = bins.keys.max() else { return [] }
        let total = Double(histogram.count)
        var points: [(x: Double, y: Double)] = []
        for index in first...last {
            let share = Double(bins[index] ?? 0) / total * 100
            points.append((lowerEdge(of: index), share))
            points.append((lowerEdge(of: index + 1), share))
        }
        return points
    }

    static func bin(of value: Double) -> Int {
        Int(Foundation.floor(Foundation.log10(value) * Double(binsPerDecade) + 1e-9))
    }

    static func lowerEdge(of bin: Int) -> Double {
        Foundation.pow(10, Double(bin) / Double(binsPerDecade))
    }
}
