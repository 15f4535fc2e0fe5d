#if canImport(Glibc)
import Glibc
#endif

/// Renders the progress of a run on standard error: a bar redrawn in place when stderr is a
/// terminal (journeys done, percent, rate, ETA), plain periodic lines when it is not (logs, CI),
/// nothing with `--quiet`.
///
/// It only renders text: the caller polls the journeys-done counter (for example from the thread
/// that waits for the workers), calls ``update(completed:nowNanos:)`` and writes whatever it
/// returns to stderr; ``finish(completed:nowNanos:)`` ends the bar with a newline. Updates are
/// rate-limited (``Style/bar`` at most every 100 ms, ``Style/lines`` every 5 s by default), so
/// polling often is cheap.
///
/// Thread safety: a value type; use it from one thread.
package struct ProgressReporter: Sendable {
    /// How progress is shown.
    package enum Style: Sendable, Equatable {
        /// A bar redrawn with `\r` (stderr is a terminal).
        case bar
        /// One full line per interval (stderr is a file or pipe).
        case lines
        /// Nothing (`--quiet`).
        case quiet

        /// `.quiet` when `quiet`, else `.bar` on a terminal and `.lines` otherwise.
        package static func choose(stderrIsTerminal: Bool, quiet: Bool) -> Style {
            quiet ? .quiet : (stderrIsTerminal ? .bar : .lines)
        }
    }

    package let total: UInt64
    package let style: Style
    package let startNanos: UInt64
    /// Minimum time between two outputs.
    package let intervalNanos: UInt64
    private var lastOutputNanos: UInt64
    private var finished = false

    /// - Parameters:
    ///   - total: journeys the run will do (0 when unknown: no percent or ETA).
    ///   - startNanos: when the run started, on the clock later passed as `nowNanos`
    ///     (``monotonicNanos()``).
    ///   - intervalNanos: minimum time between outputs; default 100 ms for the bar, 5 s for lines.
    package init(total: UInt64, style: Style, startNanos: UInt64, intervalNanos: UInt64? = nil) {
        self.total = total
        self.style = style
        self.startNanos = startNanos
        self.intervalNanos = intervalNanos ?? (style == .bar ? 100_000_000 : 5_000_000_000)
        self.lastOutputNanos = startNanos
    }

    /// The text to write now for `completed` journeys, or nil when nothing is due.
    package mutating func update(completed: UInt64, nowNanos: UInt64) -> String? {
        switch style {
        case .quiet: return nil
        case .bar, .lines:
            guard !finished, nowNanos &- lastOutputNanos >= intervalNanos else { return nil }
            lastOutputNanos = nowNanos
            return render(completed: completed, nowNanos: nowNanos)
        }
    }

    /// The final text: the bar at its end state followed by a newline, or a last line; nil when
    /// quiet or already finished.
    package mutating func finish(completed: UInt64, nowNanos: UInt64) -> String? {
        guard !finished else { return nil }
        finished = true
        switch style {
        case .quiet: return nil
        case .bar, .lines: return render(completed: completed, nowNanos: nowNanos) + (style == .bar ? "\n" : "")
        }
    }

    func render(completed: UInt64, nowNanos: UInt64) -> String {
        let elapsed = nowNanos &- startNanos
        let rate = elapsed == 0 ? 0 : Double(completed) * 1e9 / Double(elapsed)
        let fraction = total == 0 ? 0 : Swift.min(Double(completed) / Double(total), 1)
        var eta = "?"
        if total > 0, rate > 0 {
            eta = Self.duration(seconds: Double(total &- Swift.min(completed, total)) / rate)
        }
        let percent = ReportSchema.decimal(fraction * 100, digits: 1) + "%"
        let counts = "\(Self.grouped(completed))/\(total == 0 ? "?" : Self.grouped(total)) journeys"
        let speed = Self.rate(rate)
        switch style {
        case .bar:
            let width = 30
            let filled = Int((fraction * Double(width)).rounded(.down))
            let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
            return "\r[\(bar)] \(percent)  \(counts)  \(speed)  ETA \(eta)  "
        case .lines, .quiet:
            return
                "progress: \(counts) (\(percent)), \(speed), elapsed \(Self.duration(seconds: Double(elapsed) / 1e9)), ETA \(eta)\n"
        }
    }

    /// `1,234,567`.
    static func grouped(_ value: UInt64) -> String {
        let digits = Array(String(value))
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result += "," }
            result.append(digit)
        }
        return result
    }

    /// `1.23 M/s`, `45.6 k/s`, `12 /s`.
    static func rate(_ perSecond: Double) -> String {
        if perSecond >= 1e6 { return ReportSchema.decimal(perSecond / 1e6, digits: 2) + " M/s" }
        if perSecond >= 1e3 { return ReportSchema.decimal(perSecond / 1e3, digits: 1) + " k/s" }
        return ReportSchema.decimal(perSecond, digits: 0) + " /s"
    }

    /// `1:02:03`, `4:05`, `7s`.
    static func duration(seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0, seconds < 1e9 else { return "?" }
        let total = Int(seconds.rounded())
        let hours = total / 3600
        let minutes = total / 60 % 60
        let secs = total % 60
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        if hours > 0 { return "\(hours):\(two(minutes)):\(two(secs))" }
        if minutes > 0 { return "\(minutes):\(two(secs))" }
        return "\(secs)s"
    }

    /// A monotonic clock in nanoseconds (`CLOCK_MONOTONIC`), for `startNanos` and `nowNanos`.
    package static func monotonicNanos() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
