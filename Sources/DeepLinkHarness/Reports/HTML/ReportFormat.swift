import Foundation

/// How numbers read on the page and in summary.md: durations with their unit (`1.2 µs`),
/// grouped integers (`1,000,000`), bytes (`42.0 MiB`), percentiles on the `1/(1−p)` axis (`99.9%`).
/// Locale-independent, never NaN (non-finite values read as `n/a`).
///
/// Thread safety: stateless.
package enum ReportFormat {
    /// `1234` → `1.23 µs`; `12` → `12 ns`; three significant digits above 1 µs.
    package static func nanos(_ value: Double) -> String {
        guard value.isFinite else { return "n/a" }
        let units: [(Double, String)] = [(1e9, "s"), (1e6, "ms"), (1e3, "µs")]
        for (scale, unit) in units where abs(value) >= scale {
            return significant(value / scale) + " " + unit
        }
        return ReportSchema.decimal(value, digits: 0) + " ns"
    }

    /// An axis label for a power of ten of nanoseconds: `1 ns`, `10 µs`, `1 s`.
    package static func nanosTick(_ value: Double) -> String { nanos(value) }

    /// `value` with three significant digits (`1.23`, `12.3`, `123`).
    static func significant(_ value: Double) -> String {
        let magnitude = abs(value)
        let digits = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : 2
        var text = ReportSchema.decimal(value, digits: digits)
        if text.contains(".") {
            while text.last == "0" { text.removeLast() }
            if text.last == "." { text.removeLast() }
        }
        return text
    }

    /// `1234567.4` → `1,234,567`.
    package static func grouped(_ value: Double) -> String {
        guard value.isFinite else { return "n/a" }
        let digits = ReportSchema.decimal(value.magnitude, digits: 0)
        var result = ""
        for (offset, character) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(character)
        }
        return (value < 0 && digits != "0" ? "-" : "") + result
    }

    /// `44453888` → `42.4 MiB`.
    package static func bytes(_ value: Double) -> String {
        guard value.isFinite else { return "n/a" }
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var scaled = value
        var unit = 0
        while abs(scaled) >= 1024, unit < units.count - 1 {
            scaled /= 1024
            unit += 1
        }
        return ReportSchema.decimal(scaled, digits: unit == 0 ? (scaled == scaled.rounded() ? 0 : 2) : 1) + " "
            + units[unit]
    }

    /// The percentile at `x = 1/(1−p)`: 1 → `0%`, 2 → `50%`, 10 → `90%`, 1000 → `99.9%`.
    package static func percentileLabel(forInverseTail x: Double) -> String {
        guard x.isFinite, x >= 1 else { return "0%" }
        let percentile = (1 - 1 / x) * 100
        // As many decimals as the tail needs: 99.99 at x = 10⁴.
        let decimals = Swift.max(0, Int(Foundation.ceil(Foundation.log10(x) - 1e-9)) - 2)
        var text = ReportSchema.decimal(percentile, digits: decimals)
        if text.contains(".") {
            while text.last == "0" { text.removeLast() }
            if text.last == "." { text.removeLast() }
        }
        return text + "%"
    }

    /// `0.1234` → `+12.3%`.
    package static func signedPercent(_ value: Double) -> String {
        guard value.isFinite else { return "n/a" }
        return (value >= 0 ? "+" : "") + ReportSchema.decimal(value, digits: 1) + "%"
    }
}
