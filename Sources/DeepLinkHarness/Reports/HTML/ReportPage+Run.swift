import Foundation

extension ReportPage {
    static func headline(_ data: ReportData, into page: inout Page) {
        page.section("headline", "Headline")
        if let source = data.runSource {
            page.paragraph("Run sections show the first repetition: \(source).", className: "guide")
        }
        if let run = data.run {
            let underTest = run.strategies.filter { RunVerdict.isUnderTest($0.name) }
            let peers = run.strategies.filter { !RunVerdict.isUnderTest($0.name) }
            let violations = underTest.reduce(0) { $0 + $1.violations }
            var tiles: [(String, String, Bool)] = [
                ("journeys per strategy", ReportFormat.grouped(run.journeys), false),
                ("seed", run.seed, false),
                ("threads", ReportFormat.grouped(run.threads), false),
                ("wall time", ReportFormat.nanos(run.wallNanos), false),
                ("peak RSS", ReportFormat.bytes(run.peakRSSBytes), false),
            ]
            if !underTest.isEmpty {
                let names = underTest.map(\.name).joined(separator: ", ")
                tiles.append(("violations (\(names))", ReportFormat.grouped(violations), violations > 0))
            }
            if !peers.isEmpty {
                let failures = peers.reduce(0) { $0 + $1.violations }
                tiles.append(("expected failures of the peers", ReportFormat.grouped(failures), false))
            }
            if run.offeredPerSecond > 0 {
                tiles += [
                    ("offered (open loop)", ReportFormat.grouped(run.offeredPerSecond) + " /s", false),
                    ("late starts", ReportFormat.grouped(run.lateStarts), false),
                    ("dropped", ReportFormat.grouped(run.dropped), run.dropped > 0),
                    ("max start lag", ReportFormat.nanos(run.maxStartLagNanos), false),
                ]
            }
            page.raw("<div class=\"tiles\">")
            for (label, value, alarm) in tiles {
                page.raw("<div class=\"tile\">\(Markup.escape(label))" + (alarm ? "<b class=\"alarm\">" : "<b>"))
                page.raw("\(Markup.escape(value))</b></div>")
            }
            page.raw("</div>\n")
            let p99 = { (strategy: String) -> String in
                guard let histogram = run.histograms[strategy]?[Metric.journey] else { return "n/a" }
                return ReportFormat.nanos(Double(histogram.value(atPercentile: 99)))
            }
            func strategyTable(_ strategies: [ReportData.Strategy], violations: String, alarming: Bool, id: String) {
                page.table(
                    header: ["strategy", "journeys", "journeys/s", violations, "bytes/journey", "journey p99"],
                    rows: strategies.map { strategy in
                        [
                            strategy.name, ReportFormat.grouped(strategy.journeys),
                            ReportFormat.grouped(strategy.journeysPerSecond), ReportFormat.grouped(strategy.violations),
                            ReportSchema.decimal(strategy.bytesPerJourney, digits: 2), p99(strategy.name),
                        ]
                    },
                    numeric: [1, 2, 3, 4, 5],
                    alarming: { row, column in alarming && column == 3 && strategies[row].violations > 0 },
                    id: id
                )
            }
            page.raw("<h3>Under test</h3>\n")
            strategyTable(underTest, violations: "violations", alarming: true, id: "headline-table")
            if !peers.isEmpty {
                page.raw("<h3>Peers: expected failures</h3>\n")
                page.paragraph(
                    "The peers implement deferred deep links the ways the spec warns against; they are here to be "
                        + "caught, so their violations are expected, reported and never judged.",
                    className: "guide"
                )
                strategyTable(peers, violations: "expected failures", alarming: false, id: "peers-table")
            }
        }
        if let manifest = data.manifest {
            var rows: [[String]] = [
                ["commit", manifest.commit], ["toolchain", manifest.toolchain], ["CPU", manifest.cpuModel],
                ["cores", String(manifest.cores)], ["allocator", manifest.allocator],
                ["start time", manifest.startTime], ["command line", manifest.commandLine.joined(separator: " ")],
            ]
            if let shard = manifest.shard { rows.append(["shard", shard]) }
            if !manifest.mergedFrom.isEmpty {
                rows.append(["merged from", manifest.mergedFrom.joined(separator: ", ")])
            }
            page.raw("<h3>Environment (manifest.json)</h3>\n")
            page.table(header: ["key", "value"], rows: rows, id: "environment")
        }
        page.endSection()
    }

    /// Outcome names of a run in display order: `routed` first, other non-violations by total,
    /// then violations by total. `rejected:<reason>` are grouped as `rejected`.
    static func outcomeGroups(_ run: ReportData.Run) -> (plain: [String], violations: [String]) {
        var totals: [String: Double] = [:]
        for row in run.outcomes { totals[group(row.outcome), default: 0] += row.count }
        let ordered = totals.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map(\.key)
        let violations = ordered.filter { run.violationOutcomes.contains($0) }
        var plain = ordered.filter { !run.violationOutcomes.contains($0) }
        if let routed = plain.firstIndex(of: "routed") { plain.insert(plain.remove(at: routed), at: 0) }
        return (plain, violations)
    }

    static func group(_ outcome: String) -> String {
        outcome.hasPrefix("rejected:") ? "rejected" : outcome
    }

    static func outcomes(_ run: ReportData.Run, into page: inout Page) {
        page.section("outcomes", "Outcomes by strategy")
        let groups = outcomeGroups(run)
        var fills: [String: StackedBarChart.Fill] = [:]
        for (index, name) in groups.plain.enumerated() {
            fills[name] = .colour(outcomeColours[index % outcomeColours.count])
        }
        for (index, name) in groups.violations.enumerated() { fills[name] = .hatch(index) }
        let rows = run.strategies.map { strategy -> StackedBarChart.Row in
            var counts: [String: Double] = [:]
            for row in run.outcomes where row.strategy == strategy.name {
                counts[group(row.outcome), default: 0] += row.count
            }
            let segments = (groups.plain + groups.violations).map { name in
                StackedBarChart.Segment(name: name, value: counts[name] ?? 0, fill: fills[name] ?? .colour("#999999"))
            }
            let share = strategy.journeys > 0 ? strategy.violations / strategy.journeys * 100 : 0
            let underTest = RunVerdict.isUnderTest(strategy.name)
            let note =
                strategy.violations > 0
                ? "\(ReportFormat.grouped(strategy.violations)) \(underTest ? "violations" : "expected failures") "
                    + "(\(ReportSchema.decimal(share, digits: 2))%)"
                : "no violations"
            return StackedBarChart.Row(
                label: strategy.name,
                segments: segments,
                note: note,
                alarming: underTest && strategy.violations > 0
            )
        }
        let chart = StackedBarChart(
            title: "Outcomes by strategy",
            xLabel: "share of the strategy's journeys (%)",
            scale: .shares,
            rows: rows
        )
        page.raw(
            figure(
                id: "outcomes",
                title: "Outcomes by strategy",
                guide: "Each bar is one strategy's journeys, split by outcome; hatched red segments are correctness "
                    + "violations (drawn at least 3 px wide). Hover a segment for its count.",
                svg: chart.svg(idPrefix: "outcomes")
            )
        )
        page.raw("<div class=\"legend\">")
        for name in groups.plain + groups.violations {
            switch fills[name] ?? .colour("#999999") {
            case .colour(let colour):
                page.raw("<span><span class=\"swatch\" style=\"background:\(Markup.escape(colour))\"></span>")
            case .hatch(let index):
                let angle = StackedBarChart.hatchAngles[index % StackedBarChart.hatchAngles.count] + 90
                page.raw("<span><span class=\"swatch hatched\" style=\"background:repeating-linear-gradient(")
                page.raw("\(SVGWriter.number(angle))deg,#000 0 2px,#D55E00 2px 6px)\"></span>")
            }
            let violation = run.violationOutcomes.contains(name)
            page.raw(Markup.escape(name) + (violation ? " <b class=\"alarm\">(violation)</b>" : "") + "</span>")
        }
        page.raw("</div>\n")

        // Scenario classes, worst first.
        var journeys: [String: [String: Double]] = [:]
        var violations: [String: [String: Double]] = [:]
        var kinds: [String: Set<String>] = [:]
        for row in run.outcomes {
            journeys[row.scenarioClass, default: [:]][row.strategy, default: 0] += row.count
            if run.violationOutcomes.contains(row.outcome) {
                violations[row.scenarioClass, default: [:]][row.strategy, default: 0] += row.count
                kinds[row.scenarioClass, default: []].insert(row.outcome)
            }
        }
        var classes: [(name: String, total: Double, rate: Double)] = []
        for name in journeys.keys {
            let total: Double = violations[name]?.values.reduce(0, +) ?? 0
            let seen: Double = journeys[name]?.values.reduce(0, +) ?? 0
            classes.append((name, total, seen > 0 ? total / seen : 0))
        }
        classes.sort { lhs, rhs in
            if lhs.total != rhs.total { return lhs.total > rhs.total }
            if lhs.rate != rhs.rate { return lhs.rate > rhs.rate }
            return lhs.name < rhs.name
        }
        page.raw("<h3>Scenario classes, worst first</h3>\n")
        page.paragraph(
            "Violations per strategy in each platform/source/perturbation class, most violations first; "
                + "journeys is the class's size (the largest over strategies).",
            className: "guide"
        )
        let shown = Array(classes.prefix(tableRows))
        let names = run.strategies.map(\.name)
        var cellRows: [[String]] = []
        for entry in shown {
            var cells = [entry.name, ReportFormat.grouped(journeys[entry.name]?.values.max() ?? 0)]
            for name in names { cells.append(ReportFormat.grouped(violations[entry.name]?[name] ?? 0)) }
            cells.append((kinds[entry.name] ?? []).sorted().joined(separator: ", "))
            cellRows.append(cells)
        }
        let header: [String] = ["scenario class", "journeys"] + names.map { "\($0) violations" } + ["violation kinds"]
        page.table(
            header: header,
            rows: cellRows,
            numeric: Set(1...(names.count + 1)),
            alarming: { row, column in
                guard column >= 2, column < names.count + 2 else { return false }
                return (violations[shown[row].name]?[names[column - 2]] ?? 0) > 0
            },
            id: "scenario-classes"
        )
        if classes.count > shown.count {
            page.paragraph(
                "\(classes.count - shown.count) more classes (all of them in outcomes.csv).",
                className: "guide"
            )
        }
        page.endSection()
    }

    static func latency(_ run: ReportData.Run, into page: inout Page) {
        page.section("latency", "Latency percentile spectrum")
        page.raw("<div class=\"charts\">")
        let openLoop = run.metrics.contains(Metric.journeyCorrected)
        for metric in run.metrics where metric != Metric.journeyCorrected {
            var series: [LineChart.Series] = []
            for (index, strategy) in run.strategies.enumerated() {
                let colour = colour(ofStrategyAt: index)
                let plain = points(run, strategy: strategy.name, metric: metric)
                if openLoop, metric == Metric.journey {
                    let corrected = points(run, strategy: strategy.name, metric: Metric.journeyCorrected)
                    series.append(.init(name: "\(strategy.name) corrected", colour: colour, points: corrected))
                    series.append(.init(name: "\(strategy.name) service", colour: colour, dashed: true, points: plain))
                } else {
                    series.append(.init(name: strategy.name, colour: colour, points: plain))
                }
            }
            let title = "Latency spectrum: \(metric)"
            var chart = LineChart(
                title: title,
                xLabel: "percentile (log scale of 1/(1−p))",
                yLabel: "latency (ns, log scale)",
                xAxis: .inverseTail,
                yAxis: .logNanos,
                series: series
            )
            // The whole journey is the headline metric: full width.
            let wide = metric == Metric.journey
            if wide {
                chart.width = 1000
                chart.height = 360
            }
            var guide = "Latency at each percentile; further right is rarer, up to the maximum. Lower is better."
            if openLoop, metric == Metric.journey {
                guide += " Solid: from each arrival's intended start (what a user waits, corrected for coordinated "
                guide += "omission); dashed: the strategy's own service time."
            }
            page.raw(
                figure(
                    id: "spectrum-\(metric)",
                    title: title,
                    guide: guide,
                    svg: chart.svg(idPrefix: "spectrum-\(metric)"),
                    wide: wide
                )
            )
        }
        page.raw("</div>\n")
        page.endSection()
    }

    static func points(_ run: ReportData.Run, strategy: String, metric: String) -> [(x: Double, y: Double)] {
        if let histogram = run.histograms[strategy]?[metric] { return LatencySeries.spectrum(histogram) }
        return LatencySeries.spectrum(percentiles: run.latency[strategy]?[metric] ?? [])
    }

    static func histograms(_ run: ReportData.Run, into page: inout Page) {
        // Reports from before histograms.csv have nothing to bin.
        guard !run.histograms.isEmpty else { return }
        page.section("histograms", "Histograms")
        page.raw("<div class=\"charts\">")
        for metric in run.metrics {
            let series = run.strategies.enumerated().compactMap { index, strategy -> LineChart.Series? in
                guard let histogram = run.histograms[strategy.name]?[metric] else { return nil }
                return .init(
                    name: strategy.name,
                    colour: colour(ofStrategyAt: index),
                    points: LatencySeries.distribution(histogram)
                )
            }
            guard !series.isEmpty else { continue }
            let title = "Distribution: \(metric)"
            var chart = LineChart(
                title: title,
                xLabel: "latency (ns, log scale)",
                yLabel: "share of values (%)",
                xAxis: .logNanos,
                yAxis: .linearPercent,
                series: series
            )
            // Whole journeys span many decades and every strategy: full width, as their spectrum.
            let wide = metric == Metric.journey || metric == Metric.journeyCorrected
            if wide {
                chart.width = 1000
                chart.height = 340
            }
            page.raw(
                figure(
                    id: "histogram-\(metric)",
                    title: title,
                    guide: "Share of recorded values per bin (the histogram's log-linear buckets merged into "
                        + "\(LatencySeries.binsPerDecade) bins per decade); peaks are the common latencies.",
                    svg: chart.svg(idPrefix: "histogram-\(metric)"),
                    wide: wide
                )
            )
        }
        page.raw("</div>\n")
        page.endSection()
    }

    static func allocations(_ run: ReportData.Run, into page: inout Page) {
        page.section("allocations", "Allocations and memory")
        let rows = run.strategies.enumerated().map { index, strategy in
            StackedBarChart.Row(
                label: strategy.name,
                segments: [
                    .init(
                        name: "bytes per journey",
                        value: strategy.bytesPerJourney,
                        fill: .colour(colour(ofStrategyAt: index))
                    )
                ],
                note: ReportSchema.decimal(strategy.bytesPerJourney, digits: 2) + " B/journey"
            )
        }
        let chart = StackedBarChart(
            title: "Bytes allocated per journey",
            xLabel: "bytes allocated per journey (jemalloc)",
            scale: .bytes,
            rows: rows
        )
        page.raw(
            figure(
                id: "allocations",
                title: "Bytes allocated per journey",
                guide: "Heap bytes each strategy allocated per journey (shorter is better; the gate fails on growth).",
                svg: chart.svg(idPrefix: "allocations")
            )
        )
        page.paragraph(
            "Peak resident set size of the whole run (VmHWM): \(ReportFormat.bytes(run.peakRSSBytes))"
                + " (\(ReportFormat.grouped(run.peakRSSBytes)) bytes)."
        )
        page.endSection()
    }
}
