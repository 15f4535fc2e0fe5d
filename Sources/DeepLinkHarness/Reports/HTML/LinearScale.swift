import Foundation

/// A linear mapping from `0...upper` to a pixel range, with "nice" ticks (1, 2 or 5 × 10ⁿ apart).
/// Non-finite values map to the range start, so no coordinate is ever NaN.
///
/// Thread safety: an immutable value.
package struct LinearScale: Sendable, Equatable {
    package let upper: Double
    package let rangeStart: Double
    package let rangeEnd: Double
    package let step: Double

    /// `upper` is rounded up to a whole number of tick steps (about `tickCount` of them).
    package init(upper: Double, rangeStart: Double, rangeEnd: Double, tickCount: Int = 5) {
        let top = upper.isFinite && upper > 0 ? upper : 1
        let raw = top / Double(Swift.max(1, tickCount))
        let magnitude = Foundation.pow(10, Foundation.floor(Foundation.log10(raw)))
        let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= raw * (1 - 1e-12) } ?? magnitude * 10
        self.step = step
        self.upper = Foundation.ceil(top / step - 1e-9) * step
        self.rangeStart = rangeStart
        self.rangeEnd = rangeEnd
    }

    package func position(_ value: Double) -> Double {
        guard value.isFinite else { return rangeStart }
        let clamped = Swift.min(Swift.max(value, 0), upper)
        return rangeStart + clamped / upper * (rangeEnd - rangeStart)
    }

    /// 0, step, 2·step, … up to ``upper``.
    package var ticks: [Double] {
        let count = Int((upper / step).rounded())
        return (0...Swift.max(0, count)).map { Double($0) * step }
    }
}
