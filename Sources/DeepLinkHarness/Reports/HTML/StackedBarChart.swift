/// Horizontal stacked bars, one row per strategy: outcome shares (each row to 100 %) or plain
/// values (allocations). Segments are filled with a colour or with a black hatching over a colour,
/// the latter reserved for violations so that they stand out in colour, in grey print and for
/// colour-blind readers; a non-zero hatched segment is at least 3 px wide so it is never lost.
/// Every segment carries a hover tooltip (SVG `<title>`, no script).
///
/// Thread safety: a value type.
public struct StackedBarChart: Sendable {
    public enum Fill: Sendable, Equatable {
        case colour(String)
        /// Hatching pattern `index` (see ``hatchAngles``) over ``hatchColour``.
        case hatch(Int)
    }

    public struct Segment: Sendable {
        public var name: String
        public var value: Double
        public var fill: Fill

        public init(name: String, value: Double, fill: Fill) {
            self.name = name
            self.value = value
            self.fill = fill
        }
    }

    public struct Row: Sendable {
        public var label: String
        public var segments: [Segment]
        /// Text right of the bar (e.g. the violation count); red when `alarming`.
        public var note: String
        public var alarming: Bool

        public init(label: String, segments: [Segment], note: String = "", alarming: Bool = false) {
            self.label = label
            self.segments = segments
            self.note = note
            self.alarming = alarming
        }
    }

    public enum Scale: Sendable {
        /// Each row spans the full width (shares of its total), axis in percent.
        case shares
        /// Rows share one axis of bytes.
        case bytes
    }

    public static let hatchColour = "#D55E00"
    public static let hatchAngles: [Double] = [45, -45, 0, 90]

    public var title: String
    public var xLabel: String
    public var scale: Scale
    public var rows: [Row]
    public var width: Double = 1000

    public init(title: String, xLabel: String, scale: Scale, rows: [Row]) {
        self.title = title
        self.xLabel = xLabel
        self.scale = scale
        self.rows = rows
    }

    public func svg(idPrefix: String) -> String {
        let rowHeight = 28.0
        // Room for the longest row label left of the bars and the longest note right of them
        // (13 px labels, 12.5 px notes, bold when alarming: the stylesheet's sizes); a note starts
        // at most `overhang` + 8 past the bars' end.
        let overhang = 16.0
        let labelWidth = rows.map { SVGWriter.estimatedWidth($0.label, fontSize: 13) }.max() ?? 0
        let noteWidth = rows.map { SVGWriter.estimatedWidth($0.note, fontSize: 12.5, bold: $0.alarming) }.max() ?? 0
        let left = Swift.max(110, labelWidth + 16)
        let right = width - Swift.max(60, noteWidth + overhang + 8 + 6)
        let top = 8.0
        let height = top + Double(Swift.max(rows.count, 1)) * rowHeight + 44
        var writer = SVGWriter(width: width, height: height, title: title, idPrefix: idPrefix)
        writer.hatchPatterns(colour: Self.hatchColour, angles: Self.hatchAngles)
        let largest = rows.map { $0.segments.reduce(0) { $0 + Swift.max(0, $1.value.isFinite ? $1.value : 0) } }.max()
        let axis = LinearScale(
            upper: scale == .shares ? 100 : Swift.max(largest ?? 1, 1e-9),
            rangeStart: left,
            rangeEnd: right
        )
        let bottom = top + Double(rows.count) * rowHeight
        for tick in axis.ticks {
            let x = axis.position(tick)
            writer.line(x1: x, y1: top, x2: x, y2: bottom, className: "grid")
            let label = scale == .shares ? ReportSchema.decimal(tick, digits: 0) + "%" : ReportFormat.bytes(tick)
            writer.text(label, x: x, y: bottom + 16, anchor: .middle, className: "tick")
        }
        writer.text(xLabel, x: (left + right) / 2, y: height - 6, anchor: .middle, className: "axis-label")
        if rows.isEmpty {
            writer.text("no data", x: (left + right) / 2, y: top + 18, anchor: .middle, className: "empty")
        }
        for (index, row) in rows.enumerated() {
            let y = top + Double(index) * rowHeight + 4
            let barHeight = rowHeight - 8
            writer.text(row.label, x: left - 8, y: y + barHeight / 2 + 5, anchor: .end, className: "row-label")
            let values = row.segments.map { $0.value.isFinite ? Swift.max(0, $0.value) : 0 }
            let total = values.reduce(0, +)
            var x = left
            for (segment, value) in zip(row.segments, values) where value > 0 {
                let share = total > 0 ? value / total : 0
                var segmentWidth =
                    scale == .shares ? share * (right - left) : axis.position(value) - axis.position(0)
                if case .hatch = segment.fill { segmentWidth = Swift.max(segmentWidth, 3) }
                segmentWidth = Swift.min(segmentWidth, right + overhang - x)
                let fill: String
                switch segment.fill {
                case .colour(let colour): fill = colour
                case .hatch(let pattern): fill = "url(#\(writer.id("hatch\(pattern % Self.hatchAngles.count)")))"
                }
                let tooltip =
                    "\(row.label): \(segment.name) "
                    + (scale == .shares
                        ? "\(ReportFormat.grouped(value)) (\(ReportSchema.decimal(share * 100, digits: 2))%)"
                        : ReportFormat.bytes(value))
                writer.rect(x: x, y: y, width: segmentWidth, height: barHeight, fill: fill, tooltip: tooltip)
                x += segmentWidth
            }
            if !row.note.isEmpty {
                writer.text(
                    row.note,
                    x: Swift.max(x, right) + 8,
                    y: y + barHeight / 2 + 5,
                    className: row.alarming ? "note alarm" : "note"
                )
            }
        }
        return writer.svg
    }
}
