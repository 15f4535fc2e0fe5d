import Foundation

/// A base-10 logarithmic mapping from a positive data domain to a pixel range, with ticks at the
/// powers of ten inside the domain (and, when asked, 2 × and 5 × them).
///
/// Never yields a NaN or infinite coordinate: values at or below zero, NaN and infinity are clamped
/// to the domain's ends, and an empty or inverted domain is widened to one decade.
///
/// Thread safety: an immutable value.
package struct LogScale: Sendable, Equatable {
    package let lower: Double
    package let upper: Double
    package let rangeStart: Double
    package let rangeEnd: Double

    /// Maps `lower...upper` onto `rangeStart...rangeEnd` (either direction). With `wholeDecades`
    /// the domain is widened to the enclosing powers of ten, so the first and last ticks sit on the
    /// axis ends.
    package init(lower: Double, upper: Double, rangeStart: Double, rangeEnd: Double, wholeDecades: Bool = true) {
        var low = lower.isFinite && lower > 0 ? lower : 1
        var high = upper.isFinite && upper > 0 ? upper : low * 10
        if high < low { swap(&low, &high) }
        if wholeDecades {
            low = Foundation.pow(10, Foundation.floor(Foundation.log10(low)))
            high = Foundation.pow(10, Foundation.ceil(Foundation.log10(high)))
        }
        if high <= low { high = low * 10 }
        self.lower = low
        self.upper = high
        self.rangeStart = rangeStart.isFinite ? rangeStart : 0
        self.rangeEnd = rangeEnd.isFinite ? rangeEnd : 0
    }

    /// The coordinate of `value`, clamped to the range.
    package func position(_ value: Double) -> Double {
        let clamped = value.isNaN ? lower : Swift.min(Swift.max(value, lower), upper)
        let fraction =
            (Foundation.log10(clamped) - Foundation.log10(lower))
            / (Foundation.log10(upper) - Foundation.log10(lower))
        let position = rangeStart + fraction * (rangeEnd - rangeStart)
        return position.isFinite ? position : rangeStart
    }

    /// The powers of ten within the domain (ends included), smallest first; with
    /// `intermediate`, also 2 × and 5 × each power when the domain spans at most two decades.
    package func ticks(intermediate: Bool = false) -> [Double] {
        let first = Int(Foundation.ceil(Foundation.log10(lower) - 1e-9))
        let last = Int(Foundation.floor(Foundation.log10(upper) + 1e-9))
        guard first <= last else { return [lower, upper] }
        let decades = last - first
        var values: [Double] = []
        for exponent in (first - 1)...last {
            let power = Foundation.pow(10, Double(exponent))
            let multiples: [Double] = intermediate && decades <= 2 ? [1, 2, 5] : [1]
            for multiple in multiples {
                let value = power * multiple
                if value >= lower * (1 - 1e-9), value <= upper * (1 + 1e-9) { values.append(value) }
            }
        }
        return values
    }
}
