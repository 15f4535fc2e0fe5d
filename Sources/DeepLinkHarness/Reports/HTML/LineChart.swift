import Foundation

/// A line chart on logarithmic axes (or a linear y axis for shares), drawn with ``SVGWriter``:
/// the latency percentile spectrum (x = `1/(1−p)`), histograms (x = ns) and capacity (x = offered
/// rate). Each line is labelled at its right end, in its own colour, so it can be told apart
/// without a legend and without colour; an optional horizontal reference line (an objective)
/// and point markers (a capacity knee) go on top.
///
/// Thread safety: a value type.
public struct LineChart: Sendable {
    public enum XAxis: Sendable {
        /// `x = 1/(1−p)`, labelled as percentiles (0%, 50%, 90%, 99%, …).
        case inverseTail
        /// Nanoseconds, labelled with units.
        case logNanos
        /// A rate per second, labelled as grouped numbers.
        case logRate
    }

    public enum YAxis: Sendable {
        /// Nanoseconds on a log scale, labelled with units.
        case logNanos
        /// A share in percent, linear from 0.
        case linearPercent
    }

    /// One line: its label, colour, whether dashed, and its points in data units.
    public struct Series: Sendable {
        public var name: String
        public var colour: String
        public var dashed: Bool
        public var points: [(x: Double, y: Double)]

        public init(name: String, colour: String, dashed: Bool = false, points: [(x: Double, y: Double)]) {
            self.name = name
            self.colour = colour
            self.dashed = dashed
            self.points = points
        }
    }

    /// A marked point (e.g. the chosen capacity knee) with its tooltip.
    public struct Marker: Sendable {
        public var x: Double
        public var y: Double
        public var colour: String
        public var tooltip: String

        public init(x: Double, y: Double, colour: String, tooltip: String) {
            self.x = x
            self.y = y
            self.colour = colour
            self.tooltip = tooltip
        }
    }

    public var title: String
    public var xLabel: String
    public var yLabel: String
    public var xAxis: XAxis
    public var yAxis: YAxis
    public var series: [Series]
    /// A horizontal line at this y value with its label (e.g. the SLO).
    public var reference: (value: Double, label: String)?
    public var markers: [Marker] = []
    public var width: Double = 520
    public var height: Double = 300

    public init(title: String, xLabel: String, yLabel: String, xAxis: XAxis, yAxis: YAxis, series: [Series]) {
        self.title = title
        self.xLabel = xLabel
        self.yLabel = yLabel
        self.xAxis = xAxis
        self.yAxis = yAxis
        self.series = series
    }

    static let margin = (left: 72.0, right: 128.0, top: 14.0, bottom: 48.0)

    /// The chart as an `<svg>` element; `idPrefix` keeps its ids unique on the page.
    public func svg(idPrefix: String) -> String {
        var writer = SVGWriter(width: width, height: height, title: title, idPrefix: idPrefix)
        var margin = Self.margin
        // Series labels sit right of the plot: room for the longest (12.5 px bold), within reason.
        let labelWidth = series.map { SVGWriter.estimatedWidth($0.name, fontSize: 12.5, bold: true) }.max() ?? 0
        margin.right = Swift.min(Swift.max(margin.right, labelWidth + 12), width / 2)
        let plot = (left: margin.left, right: width - margin.right, top: margin.top, bottom: height - margin.bottom)
        let points = series.flatMap(\.points).filter { $0.x.isFinite && $0.y.isFinite }
        let xs = points.map(\.x).filter { $0 > 0 }
        var ys = points.map(\.y).filter { yAxis == .linearPercent || $0 > 0 }
        if let reference, reference.value.isFinite, reference.value > 0 { ys.append(reference.value) }

        let xScale: LogScale
        switch xAxis {
        case .inverseTail:
            xScale = LogScale(
                lower: 1,
                upper: Swift.max(10, xs.max() ?? 10),
                rangeStart: plot.left,
                rangeEnd: plot.right
            )
        case .logNanos, .logRate:
            xScale = LogScale(
                lower: xs.min() ?? 1,
                upper: xs.max() ?? 10,
                rangeStart: plot.left,
                rangeEnd: plot.right
            )
        }
        let yLog = LogScale(
            lower: ys.min() ?? 1,
            upper: ys.max() ?? 10,
            rangeStart: plot.bottom,
            rangeEnd: plot.top
        )
        let yLinear = LinearScale(upper: ys.max() ?? 1, rangeStart: plot.bottom, rangeEnd: plot.top)
        func yPosition(_ value: Double) -> Double {
            yAxis == .logNanos ? yLog.position(value) : yLinear.position(value)
        }

        // Grid and tick labels.
        let xTicks: [Double]
        switch xAxis {
        case .inverseTail: xTicks = [1, 2] + xScale.ticks().filter { $0 >= 10 }
        case .logNanos, .logRate: xTicks = xScale.ticks(intermediate: true)
        }
        var labelEnd = -Double.infinity
        for tick in xTicks {
            let x = xScale.position(tick)
            writer.line(x1: x, y1: plot.top, x2: x, y2: plot.bottom, className: "grid")
            let label: String
            switch xAxis {
            case .inverseTail: label = ReportFormat.percentileLabel(forInverseTail: tick)
            case .logNanos: label = ReportFormat.nanosTick(tick)
            case .logRate: label = ReportFormat.grouped(tick)
            }
            // The axis starts at 0%, which 50% sits too close to for both labels.
            if xAxis == .inverseTail, tick == 1 { continue }
            // A label that would touch the one before (the tail's 99.999% and 99.9999% are close)
            // or leave the chart is left out; its grid line stays.
            let half = SVGWriter.estimatedWidth(label, fontSize: 12) / 2
            guard x - half >= Swift.max(0, labelEnd + 6), x + half <= width else { continue }
            labelEnd = x + half
            writer.text(label, x: x, y: plot.bottom + 16, anchor: .middle, className: "tick")
        }
        let yTicks = yAxis == .logNanos ? yLog.ticks(intermediate: true) : yLinear.ticks
        for tick in yTicks {
            let y = yPosition(tick)
            writer.line(x1: plot.left, y1: y, x2: plot.right, y2: y, className: "grid")
            let label =
                yAxis == .logNanos
                ? ReportFormat.nanosTick(tick)
                : ReportSchema.decimal(tick, digits: tick < 1 ? 1 : 0)
                    + "%"
            writer.text(label, x: plot.left - 6, y: y + 4, anchor: .end, className: "tick")
        }
        writer.line(x1: plot.left, y1: plot.bottom, x2: plot.right, y2: plot.bottom, className: "axis")
        writer.line(x1: plot.left, y1: plot.top, x2: plot.left, y2: plot.bottom, className: "axis")
        writer.text(xLabel, x: (plot.left + plot.right) / 2, y: height - 8, anchor: .middle, className: "axis-label")
        writer.text(
            yLabel,
            x: 16,
            y: (plot.top + plot.bottom) / 2,
            anchor: .middle,
            className: "axis-label",
            rotation: -90
        )

        if points.isEmpty {
            writer.text(
                "no data",
                x: (plot.left + plot.right) / 2,
                y: (plot.top + plot.bottom) / 2,
                anchor: .middle,
                className: "empty"
            )
        }

        if let reference, reference.value.isFinite {
            let y = yPosition(reference.value)
            writer.line(x1: plot.left, y1: y, x2: plot.right, y2: y, className: "reference")
            writer.text(reference.label, x: plot.right + 6, y: y + 4, className: "reference-label")
        }

        var labels: [(y: Double, name: String, colour: String)] = []
        for line in series {
            let mapped = line.points.filter { $0.x.isFinite && $0.y.isFinite && (xAxis == .inverseTail || $0.x > 0) }
                .map { (x: xScale.position($0.x), y: yPosition($0.y)) }
            writer.polyline(mapped, stroke: line.colour, dashed: line.dashed, tooltip: line.name)
            // A share chart's lines all end at zero: label them at their peaks instead.
            let anchor = yAxis == .linearPercent ? mapped.min { $0.y < $1.y } : mapped.last
            if let anchor { labels.append((anchor.y, line.name, line.colour)) }
        }
        for marker in markers where marker.x.isFinite && marker.y.isFinite {
            writer.circle(
                x: xScale.position(marker.x),
                y: yPosition(marker.y),
                radius: 5,
                fill: marker.colour,
                tooltip: marker.tooltip
            )
        }
        // End labels, pushed apart so that they never overlap, then up from the chart's foot when
        // pushing ran them past it (baselines 13 apart; a label's top is ~10 above its baseline).
        labels.sort { $0.y < $1.y }
        var baselines: [Double] = []
        for label in labels { baselines.append(Swift.max(label.y + 4, (baselines.last ?? -.infinity) + 13, 12)) }
        var floor = height - 4
        for index in baselines.indices.reversed() {
            baselines[index] = Swift.min(baselines[index], floor)
            floor = baselines[index] - 13
        }
        for (label, y) in zip(labels, baselines) {
            writer.text(label.name, x: plot.right + 6, y: y, className: "series-label", fill: label.colour)
        }
        return writer.svg
    }
}
