/// Builds one inline `<svg>` element as text: rectangles, lines, polylines, text and tooltips.
/// Every text and attribute value from data is escaped (``Markup/escape(_:)``); every coordinate is
/// written with at most one decimal and is never NaN or infinite (non-finite numbers are written
/// as 0, and polyline points with a non-finite coordinate are left out).
///
/// Styling is by class (`report.html`'s stylesheet), so charts print and restyle consistently;
/// colours that carry meaning are given explicitly.
///
/// Thread safety: a value type; build one per chart on one thread.
public struct SVGWriter: Sendable {
    public private(set) var body = ""
    public let width: Double
    public let height: Double
    private let title: String
    private let idPrefix: String

    /// An SVG of `width` × `height` user units whose accessible name is `title`; `idPrefix` makes
    /// the ids of its definitions unique on the page.
    public init(width: Double, height: Double, title: String, idPrefix: String) {
        self.width = width
        self.height = height
        self.title = title
        self.idPrefix = Markup.identifier(idPrefix)
    }

    /// `value` with at most one decimal, no trailing `.0`, `-0` as `0`; non-finite as `0`.
    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let tenths = (value * 10).rounded()
        guard abs(tenths) < 1e15 else { return "0" }
        let units = Int64(tenths)
        if units == 0 { return "0" }
        let sign = units < 0 ? "-" : ""
        let magnitude = units.magnitude
        let whole = magnitude / 10
        let fraction = magnitude % 10
        return sign + String(whole) + (fraction == 0 ? "" : "." + String(fraction))
    }

    /// A generous estimate of the width of `string` set in the page's sans-serif at `fontSize`
    /// user units (bold when `bold`): charts place their margins and skip crowded tick labels by
    /// it, since an SVG cannot measure text before a browser lays it out. Wide on purpose: the
    /// widest common fallback, DejaVu Sans, averages ~0.6 em per character (0.64 bold), digits 0.64.
    public static func estimatedWidth(_ string: String, fontSize: Double, bold: Bool = false) -> Double {
        Double(string.count) * fontSize * (bold ? 0.7 : 0.64)
    }

    /// The id of a definition named `name` in this SVG.
    public func id(_ name: String) -> String { idPrefix + "-" + Markup.identifier(name) }

    /// Diagonal hatching patterns over `colour`, one per `angles` entry, named `hatch0`, `hatch1`…
    public mutating func hatchPatterns(colour: String, angles: [Double]) {
        body += "<defs>"
        for (index, angle) in angles.enumerated() {
            body += "<pattern id=\"\(id("hatch\(index)"))\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\""
            body += " patternTransform=\"rotate(\(Self.number(angle)))\">"
            body += "<rect width=\"6\" height=\"6\" fill=\"\(Markup.escape(colour))\"/>"
            body += "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#000\" stroke-width=\"2.2\"/></pattern>"
        }
        body += "</defs>"
    }

    /// A rectangle filled with `fill` (a colour or `url(#…)`), with an optional hover tooltip.
    public mutating func rect(
        x: Double,
        y: Double,
        width: Double,
        height: Double,
        fill: String,
        tooltip: String? = nil,
        className: String? = nil
    ) {
        body += "<rect x=\"\(Self.number(x))\" y=\"\(Self.number(y))\" width=\"\(Self.number(Swift.max(0, width)))\""
        body += " height=\"\(Self.number(Swift.max(0, height)))\" fill=\"\(Markup.escape(fill))\""
        if let className { body += " class=\"\(Markup.escape(className))\"" }
        if let tooltip {
            body += "><title>\(Markup.escape(tooltip))</title></rect>"
        } else {
            body += "/>"
        }
    }

    /// A straight line.
    public mutating func line(x1: Double, y1: Double, x2: Double, y2: Double, className: String, stroke: String? = nil)
    {
        body += "<line x1=\"\(Self.number(x1))\" y1=\"\(Self.number(y1))\" x2=\"\(Self.number(x2))\""
        body += " y2=\"\(Self.number(y2))\" class=\"\(Markup.escape(className))\""
        if let stroke { body += " stroke=\"\(Markup.escape(stroke))\"" }
        body += "/>"
    }

    /// A polyline through `points` (non-finite points left out; nothing for fewer than one point).
    /// A single point is drawn as a small circle so that it stays visible.
    public mutating func polyline(
        _ points: [(x: Double, y: Double)],
        stroke: String,
        dashed: Bool = false,
        className: String = "series",
        tooltip: String? = nil
    ) {
        let finite = points.filter { $0.x.isFinite && $0.y.isFinite }
        guard let first = finite.first else { return }
        let tip = tooltip.map { "<title>\(Markup.escape($0))</title>" } ?? ""
        if finite.count == 1 {
            body += "<circle cx=\"\(Self.number(first.x))\" cy=\"\(Self.number(first.y))\" r=\"3\""
            body += " fill=\"\(Markup.escape(stroke))\" class=\"\(Markup.escape(className))\">\(tip)</circle>"
            return
        }
        body += "<polyline class=\"\(Markup.escape(className))\" fill=\"none\" stroke=\"\(Markup.escape(stroke))\""
        if dashed { body += " stroke-dasharray=\"6 4\"" }
        body += " points=\""
        body += finite.map { Self.number($0.x) + "," + Self.number($0.y) }.joined(separator: " ")
        body += "\">\(tip)</polyline>"
    }

    /// A circle marker with an optional tooltip.
    public mutating func circle(x: Double, y: Double, radius: Double, fill: String, tooltip: String? = nil) {
        body += "<circle cx=\"\(Self.number(x))\" cy=\"\(Self.number(y))\" r=\"\(Self.number(radius))\""
        body += " fill=\"\(Markup.escape(fill))\" stroke=\"#000\" stroke-width=\"1\""
        if let tooltip {
            body += "><title>\(Markup.escape(tooltip))</title></circle>"
        } else {
            body += "/>"
        }
    }

    public enum Anchor: String, Sendable {
        case start
        case middle
        case end
    }

    /// Text at (`x`, `y`), optionally rotated by `rotation` degrees around that point.
    public mutating func text(
        _ string: String,
        x: Double,
        y: Double,
        anchor: Anchor = .start,
        className: String = "label",
        rotation: Double = 0,
        fill: String? = nil
    ) {
        body += "<text x=\"\(Self.number(x))\" y=\"\(Self.number(y))\" text-anchor=\"\(anchor.rawValue)\""
        body += " class=\"\(Markup.escape(className))\""
        if let fill { body += " fill=\"\(Markup.escape(fill))\"" }
        if rotation != 0 {
            body += " transform=\"rotate(\(Self.number(rotation)) \(Self.number(x)) \(Self.number(y)))\""
        }
        body += ">\(Markup.escape(string))</text>"
    }

    /// The finished `<svg>` element.
    public var svg: String {
        var text =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(Self.number(width)) \(Self.number(height))\""
        text += " width=\"\(Self.number(width))\" height=\"\(Self.number(height))\" role=\"img\""
        text += " aria-label=\"\(Markup.escape(title))\"><title>\(Markup.escape(title))</title>"
        return text + body + "</svg>"
    }
}
