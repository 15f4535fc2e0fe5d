import DeepLinkHarness
import Foundation
import SanitizerTraits
import Testing

@Suite(.startsNoThread) struct SVGWriterTests {
    /// Every number in an attribute value of `svg` (coordinates, sizes), as written.
    static func attributeNumbers(_ svg: String) -> [String] {
        var numbers: [String] = []
        for attribute in ["x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "width", "height"] {
            var rest = Substring(svg)
            while let range = rest.range(of: " \(attribute)=\"") {
                let value = rest[range.upperBound...].prefix { $0 != "\"" }
                numbers.append(String(value))
                rest = rest[range.upperBound...]
            }
        }
        var rest = Substring(svg)
        while let range = rest.range(of: "points=\"") {
            let value = rest[range.upperBound...].prefix { $0 != "\"" }
            numbers += value.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
            rest = rest[range.upperBound...]
        }
        return numbers
    }

    static func expectFinite(_ svg: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let numbers = attributeNumbers(svg)
        #expect(!numbers.isEmpty, sourceLocation: sourceLocation)
        for number in numbers {
            #expect(
                Double(number)?.isFinite == true,
                "not a finite number: '\(number)'",
                sourceLocation: sourceLocation
            )
        }
    }

    @Test func logScaleTicksArePowersOfTenOverWholeDecades() {
        let scale = LogScale(lower: 3, upper: 4_500, rangeStart: 0, rangeEnd: 400)
        #expect(scale.lower == 1)
        #expect(scale.upper == 10_000)
        #expect(scale.ticks() == [1, 10, 100, 1_000, 10_000])
        let positions = scale.ticks().map(scale.position)
        #expect(positions.first == 0)
        #expect(abs(positions.last! - 400) < 1e-9)
        // Equal spacing per decade, increasing.
        for (lhs, rhs) in zip(positions, positions.dropFirst()) { #expect(abs(rhs - lhs - 100) < 1e-9) }
        // A narrow domain gets 2× and 5× ticks too; a wide one does not.
        let narrow = LogScale(lower: 12, upper: 90, rangeStart: 0, rangeEnd: 100)
        #expect(narrow.ticks(intermediate: true) == [10, 20, 50, 100])
        #expect(scale.ticks(intermediate: true) == scale.ticks())
    }

    @Test func logScaleOfAnInverseTailKeepsItsExactStart() {
        let scale = LogScale(lower: 1, upper: 1_000, rangeStart: 50, rangeEnd: 350, wholeDecades: false)
        #expect(scale.position(1) == 50)
        #expect(abs(scale.position(10) - 150) < 1e-9)
        #expect(ReportFormat.percentileLabel(forInverseTail: 1) == "0%")
        #expect(ReportFormat.percentileLabel(forInverseTail: 2) == "50%")
        #expect(ReportFormat.percentileLabel(forInverseTail: 10) == "90%")
        #expect(ReportFormat.percentileLabel(forInverseTail: 100) == "99%")
        #expect(ReportFormat.percentileLabel(forInverseTail: 1_000) == "99.9%")
        #expect(ReportFormat.percentileLabel(forInverseTail: 100_000) == "99.999%")
    }

    @Test func scalesNeverYieldNaNOrLeaveTheirRange() {
        let log = LogScale(lower: 0, upper: -.infinity, rangeStart: 10, rangeEnd: 110)
        for value in [0, -5, Double.nan, .infinity, -.infinity, 1e300, 1e-300] {
            let position = log.position(value)
            #expect(position.isFinite)
            #expect((10...110).contains(position))
        }
        let linear = LinearScale(upper: .nan, rangeStart: 0, rangeEnd: 100)
        for value in [Double.nan, .infinity, -1, 0.5] { #expect(linear.position(value).isFinite) }
        #expect(SVGWriter.number(.nan) == "0")
        #expect(SVGWriter.number(-.infinity) == "0")
        #expect(SVGWriter.number(-0.04) == "0")
        #expect(SVGWriter.number(12.345) == "12.3")
        #expect(SVGWriter.number(-7) == "-7")
    }

    @Test func textFromDataIsEscapedEverywhere() {
        let hostile = "<script>alert(\"x\")</script>&'\u{1}"
        var writer = SVGWriter(width: 100, height: 50, title: hostile, idPrefix: hostile)
        writer.text(hostile, x: 1, y: 2, className: hostile, fill: hostile)
        writer.rect(x: 0, y: 0, width: 5, height: 5, fill: hostile, tooltip: hostile)
        writer.polyline([(0, 0), (1, 1)], stroke: hostile, tooltip: hostile)
        let svg = writer.svg
        #expect(!svg.contains("<script"))
        #expect(!svg.contains("\"x\""))
        #expect(!svg.contains("\u{1}"))
        #expect(svg.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;\u{FFFD}"))
        #expect(Markup.identifier(hostile).allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" })
    }

    @Test func emptySeriesDrawAxesAndSayNoData() {
        let chart = LineChart(
            title: "empty",
            xLabel: "x",
            yLabel: "y",
            xAxis: .inverseTail,
            yAxis: .logNanos,
            series: [.init(name: "core", colour: "#0072B2", points: [])]
        )
        let svg = chart.svg(idPrefix: "empty")
        #expect(svg.contains("no data"))
        #expect(!svg.contains("<polyline"))
        Self.expectFinite(svg)
        let bars = StackedBarChart(title: "none", xLabel: "x", scale: .shares, rows: []).svg(idPrefix: "bars")
        #expect(bars.contains("no data"))
        Self.expectFinite(bars)
    }

    @Test func singlePointSeriesIsAVisibleMarker() {
        let chart = LineChart(
            title: "one",
            xLabel: "x",
            yLabel: "y",
            xAxis: .logNanos,
            yAxis: .logNanos,
            series: [.init(name: "core", colour: "#0072B2", points: [(x: 100, y: 2_000)])]
        )
        let svg = chart.svg(idPrefix: "one")
        #expect(svg.contains("<circle"))
        #expect(!svg.contains("<polyline"))
        #expect(!svg.contains("no data"))
        Self.expectFinite(svg)
    }

    @Test func degenerateDataGivesNaNFreeCoordinates() {
        let points: [(x: Double, y: Double)] = [
            (.nan, 5), (1, .nan), (0, 0), (-3, -3), (.infinity, 10), (2, 1e300), (10, 1e-300), (1e6, 5e6),
        ]
        for (xAxis, yAxis) in [(LineChart.XAxis.inverseTail, LineChart.YAxis.logNanos), (.logRate, .linearPercent)] {
            var chart = LineChart(
                title: "degenerate",
                xLabel: "x",
                yLabel: "y",
                xAxis: xAxis,
                yAxis: yAxis,
                series: [
                    .init(name: "a", colour: "#000", points: points), .init(name: "b", colour: "#111", points: []),
                ]
            )
            chart.reference = (.nan, "nan line")
            chart.markers = [.init(x: .infinity, y: 1, colour: "#000", tooltip: "m")]
            Self.expectFinite(chart.svg(idPrefix: "degenerate"))
        }
        let bars = StackedBarChart(
            title: "bars",
            xLabel: "x",
            scale: .bytes,
            rows: [.init(label: "a", segments: [.init(name: "s", value: .nan, fill: .hatch(7))])]
        )
        Self.expectFinite(bars.svg(idPrefix: "bars"))
    }

    @Test func spectrumFollowsTheHistogramsPercentileRule() {
        var histogram = Histogram()
        for value in 1...5_000 as ClosedRange<UInt64> { histogram.record(value * 3) }
        let points = LatencySeries.spectrum(histogram)
        #expect(points.first?.x == 1)
        #expect(points.first?.y == Double(histogram.min))
        #expect(points.last?.y == Double(histogram.max))
        #expect(points.last?.x == 5_000)
        for (lhs, rhs) in zip(points, points.dropFirst()) {
            #expect(lhs.x < rhs.x)
            #expect(lhs.y <= rhs.y)
        }
        for point in points.dropLast() {
            let expected = histogram.value(atPercentile: (1 - 1 / point.x) * 100)
            #expect(point.y == Double(expected), "x \(point.x)")
        }
        #expect(LatencySeries.spectrum(Histogram()).isEmpty)
        // The distribution's shares add up to 100 % (each bin appears twice, as a step).
        let shares = LatencySeries.distribution(histogram).enumerated().filter { $0.offset % 2 == 0 }.map(\.element.y)
        #expect(abs(shares.reduce(0, +) - 100) < 1e-6)
    }

    /// One small chart pinned byte for byte: a change in the writer's output must be deliberate.
    @Test func goldenChart() {
        let chart = LineChart(
            title: "golden <&>",
            xLabel: "percentile",
            yLabel: "ns",
            xAxis: .inverseTail,
            yAxis: .logNanos,
            series: [
                .init(name: "core", colour: "#0072B2", points: [(x: 1, y: 100), (x: 10, y: 400), (x: 100, y: 9_000)])
            ]
        )
        #expect(chart.svg(idPrefix: "golden") == Self.golden)
    }

    static let golden = """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 520 300" width="520" height="300" role="img" aria-label="golden &lt;&amp;&gt;">\
        <title>golden &lt;&amp;&gt;</title><line x1="72" y1="14" x2="72" y2="252" class="grid"/>\
        <line x1="120.2" y1="14" x2="120.2" y2="252" class="grid"/>\
        <text x="120.2" y="268" text-anchor="middle" class="tick">50%</text>\
        <line x1="232" y1="14" x2="232" y2="252" class="grid"/>\
        <text x="232" y="268" text-anchor="middle" class="tick">90%</text>\
        <line x1="392" y1="14" x2="392" y2="252" class="grid"/>\
        <text x="392" y="268" text-anchor="middle" class="tick">99%</text>\
        <line x1="72" y1="252" x2="392" y2="252" class="grid"/>\
        <text x="66" y="256" text-anchor="end" class="tick">100 ns</text>\
        <line x1="72" y1="216.2" x2="392" y2="216.2" class="grid"/>\
        <text x="66" y="220.2" text-anchor="end" class="tick">200 ns</text>\
        <line x1="72" y1="168.8" x2="392" y2="168.8" class="grid"/>\
        <text x="66" y="172.8" text-anchor="end" class="tick">500 ns</text>\
        <line x1="72" y1="133" x2="392" y2="133" class="grid"/>\
        <text x="66" y="137" text-anchor="end" class="tick">1 µs</text>\
        <line x1="72" y1="97.2" x2="392" y2="97.2" class="grid"/>\
        <text x="66" y="101.2" text-anchor="end" class="tick">2 µs</text>\
        <line x1="72" y1="49.8" x2="392" y2="49.8" class="grid"/>\
        <text x="66" y="53.8" text-anchor="end" class="tick">5 µs</text>\
        <line x1="72" y1="14" x2="392" y2="14" class="grid"/>\
        <text x="66" y="18" text-anchor="end" class="tick">10 µs</text>\
        <line x1="72" y1="252" x2="392" y2="252" class="axis"/>\
        <line x1="72" y1="14" x2="72" y2="252" class="axis"/>\
        <text x="232" y="292" text-anchor="middle" class="axis-label">percentile</text>\
        <text x="16" y="133" text-anchor="middle" class="axis-label" transform="rotate(-90 16 133)">ns</text>\
        <polyline class="series" fill="none" stroke="#0072B2" points="72,252 232,180.4 392,19.4">\
        <title>core</title></polyline>\
        <text x="398" y="23.4" text-anchor="start" class="series-label" fill="#0072B2">core</text></svg>
        """
}
