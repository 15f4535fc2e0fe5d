/// The relative change of each regression check against the baseline, as a dot with the 95 %
/// confidence interval of that change as a whisker, on one symmetric percent axis with the
/// tolerance marked on both sides. Right of zero is worse for latencies and allocations, left of
/// it for throughput (the change is of the value, and the gate's verdict says which way is bad).
/// The verdict is written beside each row, so colour is never the only cue.
///
/// Thread safety: a value type.
public struct ChangeChart: Sendable {
    public struct Row: Sendable {
        public var label: String
        public var changePercent: Double
        public var interval: (low: Double, high: Double)?
        public var verdict: String

        public init(label: String, changePercent: Double, interval: (low: Double, high: Double)?, verdict: String) {
            self.label = label
            self.changePercent = changePercent
            self.interval = interval
            self.verdict = verdict
        }
    }

    public var title: String
    public var rows: [Row]
    /// The tolerated regression in percent, drawn as a line (nil: none).
    public var tolerancePercent: Double?
    public var width: Double = 1000

    public init(title: String, rows: [Row], tolerancePercent: Double?) {
        self.title = title
        self.rows = rows
        self.tolerancePercent = tolerancePercent
    }

    public static func colour(ofVerdict verdict: String) -> String {
        switch verdict {
        case "pass": "#009E73"
        case "fail": "#D55E00"
        default: "#777777"
        }
    }

    public func svg(idPrefix: String) -> String {
        let rowHeight = 20.0
        let left = 230.0
        let right = width - 110
        let top = 8.0
        let bottom = top + Double(Swift.max(rows.count, 1)) * rowHeight
        let height = bottom + 42
        var writer = SVGWriter(width: width, height: height, title: title, idPrefix: idPrefix)
        var extent = 10.0
        for row in rows {
            for value in [row.changePercent, row.interval?.low ?? 0, row.interval?.high ?? 0, tolerancePercent ?? 0]
            where value.isFinite {
                extent = Swift.max(extent, Swift.min(abs(value), 1000))
            }
        }
        let axis = LinearScale(upper: extent, rangeStart: 0, rangeEnd: (right - left) / 2, tickCount: 3)
        let middle = (left + right) / 2
        func x(_ value: Double) -> Double {
            guard value.isFinite else { return middle }
            let clamped = Swift.min(Swift.max(value, -axis.upper), axis.upper)
            return clamped >= 0 ? middle + axis.position(clamped) : middle - axis.position(-clamped)
        }
        for tick in axis.ticks {
            for value in tick == 0 ? [0] : [-tick, tick] {
                writer.line(x1: x(value), y1: top, x2: x(value), y2: bottom, className: value == 0 ? "axis" : "grid")
                writer.text(
                    ReportFormat.signedPercent(value),
                    x: x(value),
                    y: bottom + 16,
                    anchor: .middle,
                    className: "tick"
                )
            }
        }
        if let tolerancePercent, tolerancePercent.isFinite {
            for limit in [-tolerancePercent, tolerancePercent] {
                writer.line(x1: x(limit), y1: top, x2: x(limit), y2: bottom, className: "reference")
            }
        }
        writer.text(
            "change against the baseline (%); whisker: its 95% confidence interval",
            x: middle,
            y: height - 6,
            anchor: .middle,
            className: "axis-label"
        )
        for (index, row) in rows.enumerated() {
            let y = top + (Double(index) + 0.5) * rowHeight
            let colour = Self.colour(ofVerdict: row.verdict)
            writer.text(row.label, x: left - 8, y: y + 4, anchor: .end, className: "row-label")
            if let interval = row.interval {
                writer.line(
                    x1: x(interval.low),
                    y1: y,
                    x2: x(interval.high),
                    y2: y,
                    className: "whisker",
                    stroke: colour
                )
            }
            writer.circle(
                x: x(row.changePercent),
                y: y,
                radius: 4.5,
                fill: colour,
                tooltip: "\(row.label): \(ReportFormat.signedPercent(row.changePercent)), \(row.verdict)"
            )
            writer.text(
                row.verdict,
                x: right + 10,
                y: y + 4,
                className: "note",
                fill: colour == "#777777" ? "#333" : colour
            )
        }
        return writer.svg
    }
}
