import Foundation

extension ReportPage {
    static func comparison(_ data: ReportData, into page: inout Page) {
        page.section("comparison", "Against the baseline")
        if let source = data.checksSource { page.paragraph("Checks from \(source).", className: "guide") }
        let counts = Dictionary(grouping: data.checks, by: \.verdict).mapValues(\.count)
        let failed = counts["fail"] ?? 0
        page.raw("<p>Verdict: <span class=\"verdict verdict-\(failed > 0 ? "fail" : "pass")\">")
        page.raw(Markup.escape(data.gateVerdict))
        page.raw(
            "</span> \(counts["pass"] ?? 0) pass, \(failed) fail, \(counts["inconclusive"] ?? 0) inconclusive.</p>\n"
        )
        let charted = data.checks.filter { $0.changePercent != nil }
        let tolerance = data.checks.compactMap { check -> Double? in
            guard let range = check.detail.range(of: "tolerance ") else { return nil }
            return Double(check.detail[range.upperBound...].prefix { $0.isNumber || $0 == "." || $0 == "-" })
        }.first
        let chart = ChangeChart(
            title: "Change against the baseline",
            rows: charted.map {
                .init(
                    label: "\($0.strategy) \($0.metric)",
                    changePercent: $0.changePercent ?? 0,
                    interval: $0.interval,
                    verdict: $0.verdict
                )
            },
            tolerancePercent: tolerance
        )
        page.raw(
            figure(
                id: "comparison",
                title: "Change against the baseline",
                guide: "Each check's relative change (dot) and, for noise-aware timing verdicts, its bootstrap 95% "
                    + "confidence interval (whisker); dotted lines: the tolerance. A rise is worse for latency and "
                    + "bytes, a drop for journeys_per_s.",
                svg: chart.svg(idPrefix: "comparison")
            )
        )
        page.raw("<table id=\"checks\"><thead><tr><th>strategy</th><th>metric</th><th>kind</th>")
        page.raw("<th class=\"num\">baseline</th><th class=\"num\">current</th><th class=\"num\">change</th>")
        page.raw("<th>verdict</th><th>detail</th></tr></thead><tbody>\n")
        for check in data.checks {
            let verdict = Markup.identifier(check.verdict)
            page.raw("<tr><td>\(Markup.escape(check.strategy))</td><td>\(Markup.escape(check.metric))</td>")
            page.raw(
                "<td>\(Markup.escape(check.kind))</td><td class=\"num\">\(Markup.escape(number(check.baseline)))</td>"
            )
            page.raw("<td class=\"num\">\(Markup.escape(number(check.current)))</td><td class=\"num\">")
            page.raw(Markup.escape(check.changePercent.map(ReportFormat.signedPercent) ?? "n/a") + "</td>")
            page.raw("<td><span class=\"verdict verdict-\(verdict)\">\(Markup.escape(check.verdict))</span></td>")
            page.raw("<td>\(Markup.escape(check.detail))</td></tr>\n")
        }
        page.raw("</tbody></table>\n")
        page.endSection()
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() ? ReportFormat.grouped(value) : ReportSchema.decimal(value, digits: 2)
    }

    /// Per thread count, the highest offered rate that met the objective.
    static func knees(_ steps: [ReportData.CapacityStep]) -> [Int: ReportData.CapacityStep] {
        var best: [Int: ReportData.CapacityStep] = [:]
        for step in steps where step.meetsObjective {
            if step.offeredPerSecond > best[step.threads]?.offeredPerSecond ?? -1 { best[step.threads] = step }
        }
        return best
    }

    static func capacity(_ data: ReportData, into page: inout Page) {
        page.section("capacity", "Capacity")
        let threads = Array(Set(data.capacity.map(\.threads))).sorted()
        let knees = knees(data.capacity)
        var series: [LineChart.Series] = []
        var markers: [LineChart.Marker] = []
        for (index, count) in threads.enumerated() {
            let steps = data.capacity.filter { $0.threads == count }.sorted {
                $0.offeredPerSecond < $1.offeredPerSecond
            }
            let colour = colour(ofStrategyAt: index)
            let label = "\(count) thread\(count == 1 ? "" : "s")"
            series.append(
                .init(name: "\(label) p99", colour: colour, points: steps.map { ($0.offeredPerSecond, $0.p99Nanos) })
            )
            series.append(
                .init(
                    name: "\(label) p99.9",
                    colour: colour,
                    dashed: true,
                    points: steps.map { ($0.offeredPerSecond, $0.p999Nanos) }
                )
            )
            if let knee = knees[count] {
                markers.append(
                    .init(
                        x: knee.offeredPerSecond,
                        y: knee.p99Nanos,
                        colour: colour,
                        tooltip: "knee, \(label): \(ReportFormat.grouped(knee.offeredPerSecond))/s at p99 "
                            + ReportFormat.nanos(knee.p99Nanos)
                    )
                )
            }
        }
        var chart = LineChart(
            title: "p99 and p99.9 against offered rate",
            xLabel: "offered rate (journeys/s, log scale)",
            yLabel: "latency from intended start (ns, log)",
            xAxis: .logRate,
            yAxis: .logNanos,
            series: series
        )
        chart.width = 1000
        chart.height = 360
        chart.reference = (data.capacityObjectiveNanos, "SLO p99 " + ReportFormat.nanos(data.capacityObjectiveNanos))
        chart.markers = markers
        page.raw(
            figure(
                id: "capacity",
                title: "p99 and p99.9 against offered rate",
                guide: "One colour per thread count (solid p99, dashed p99.9); the dotted line is the objective and "
                    + "each dot the highest rate that held it (the knee). Right of the knee, waiting dominates.",
                svg: chart.svg(idPrefix: "capacity")
            )
        )
        page.table(
            header: ["threads", "highest rate meeting the objective (/s)", "per thread (/s)", "p99 there"],
            rows: threads.map { count in
                guard let knee = knees[count] else { return [String(count), "none", "", ""] }
                return [
                    String(count), ReportFormat.grouped(knee.offeredPerSecond),
                    ReportFormat.grouped(knee.offeredPerSecond / Double(count)), ReportFormat.nanos(knee.p99Nanos),
                ]
            },
            numeric: [0, 1, 2, 3],
            id: "capacity-knees"
        )
        // The same conservative rule as `capacity`'s summary: the most threads that held anything.
        if let most = threads.last(where: { knees[$0] != nil }), let knee = knees[most] {
            let perCore = knee.offeredPerSecond / Double(most)
            page.paragraph(
                "Rate per core under the objective: \(ReportFormat.grouped(perCore)) journeys/s "
                    + "(measured with \(most) thread\(most == 1 ? "" : "s"))."
            )
            if let peak = data.capacityPeakPerSecond, peak > 0, perCore > 0 {
                let cores = (peak / perCore).rounded(.up)
                let inFlight = (peak * knee.p99Nanos / 1e9).rounded(.up)
                page.paragraph(
                    "Projection for the stated peak of \(ReportFormat.grouped(peak))/s: \(ReportFormat.grouped(cores)) "
                        + "cores, about \(ReportFormat.grouped(inFlight)) links in flight (peak × p99, Little's law); "
                        + "assumes linear scaling beyond the threads measured. capacity's printed summary has the memory."
                )
            }
        } else {
            page.paragraph("No rate met the objective on this machine.", className: "alarm")
        }
        page.endSection()
    }

    static func shards(_ manifest: RunManifest, run: ReportData.Run?, into page: inout Page) {
        page.section("shards", "Shards")
        if let shard = manifest.shard { page.paragraph("This run is shard \(shard) of a sharded run.") }
        if !manifest.mergedFrom.isEmpty {
            page.paragraph(
                "Merged from \(manifest.mergedFrom.count) reports: counters are summed, histograms merged exactly, "
                    + "wall time is the slowest input's. Each input's contribution, as merge recorded it:"
            )
            // Older merged reports recorded only the directories.
            let strategies = run?.strategies.map(\.name) ?? []
            let byShard =
                manifest.shards.isEmpty
                ? manifest.mergedFrom.map {
                    ShardContribution(source: $0, shard: nil, journeys: 0, wallNanos: 0, violations: [:])
                }
                : manifest.shards
            page.table(
                header: ["#", "shard", "report directory", "journeys", "wall time"]
                    + strategies.map { "\($0) violations" },
                rows: byShard.enumerated().map { position, shard in
                    [
                        String(position + 1), shard.shard ?? "whole", shard.source,
                        manifest.shards.isEmpty ? "" : ReportFormat.grouped(Double(shard.journeys)),
                        manifest.shards.isEmpty ? "" : ReportFormat.nanos(Double(shard.wallNanos)),
                    ]
                        + strategies.map { name in shard.violations[name].map { ReportFormat.grouped(Double($0)) } ?? ""
                        }
                },
                numeric: Set([0, 3, 4] + strategies.indices.map { $0 + 5 }),
                id: "shard-list"
            )
        }
        page.endSection()
    }

    static func violations(_ run: ReportData.Run, manifest: RunManifest?, into page: inout Page) {
        page.section("violations", "First violations")
        guard !run.violations.isEmpty else {
            page.paragraph("No violating journeys recorded (violations.csv is empty).", className: "ok")
            page.endSection()
            return
        }
        page.paragraph(
            "The lowest-numbered violating journeys of each strategy (violations.csv has up to 1,000 each), "
                + "with the command that replays one.",
            className: "guide"
        )
        let extra = replayOptions(manifest)
        let byStrategy = Dictionary(grouping: run.violations, by: \.strategy)
        let names =
            run.strategies.map(\.name)
            + byStrategy.keys.filter({ name in !run.strategies.contains { $0.name == name } }).sorted()
        var peersOpened = false
        for strategy in names {
            guard let records = byStrategy[strategy] else { continue }
            // The peers' expected failures fill screens: one collapsed block, after those under test.
            if !RunVerdict.isUnderTest(strategy), !peersOpened {
                peersOpened = true
                page.raw("<details id=\"peer-violations\"><summary>The peers' expected failures (")
                page.raw("\(names.filter { !RunVerdict.isUnderTest($0) && byStrategy[$0] != nil }.count) strategies)")
                page.raw("</summary>\n")
            }
            page.raw("<h3>\(Markup.escape(strategy)): \(records.count) recorded</h3>\n")
            for record in records.sorted(by: { $0.journey < $1.journey }).prefix(violationsShown) {
                page.raw("<div class=\"violation\"><p>journey <b>\(record.journey)</b> · ")
                page.raw("\(Markup.escape(record.scenarioClass)) · expected <b>\(Markup.escape(record.expected))</b>, ")
                page.raw("got <b class=\"alarm\">\(Markup.escape(record.actual))</b></p>")
                page.raw(trace(record.trace))
                let command =
                    "deeplink-bench replay --seed \(record.seed) --journey \(record.journey) --strategies "
                    + shellQuoted(strategy) + extra
                page.raw("<p>replay: <code>\(Markup.escape(command))</code></p></div>\n")
            }
        }
        if peersOpened { page.raw("</details>\n") }
        page.endSection()
    }

    /// Trace lines shown before the rest of a trace folds away.
    static let traceLinesShown = 3

    /// A violation's trace, one event per line: the first ``traceLinesShown`` lines, the rest in a
    /// collapsed `<details>`.
    package static func trace(_ trace: String) -> String {
        let lines = trace.components(separatedBy: "; ")
        let head = lines.prefix(traceLinesShown).joined(separator: "\n")
        guard lines.count > traceLinesShown + 1 else {
            return "<pre class=\"trace\">\(Markup.escape(lines.joined(separator: "\n")))</pre>"
        }
        let rest = lines.dropFirst(traceLinesShown).joined(separator: "\n")
        return "<pre class=\"trace\">\(Markup.escape(head))</pre><details class=\"trace-rest\"><summary>"
            + "\(lines.count - traceLinesShown) more lines</summary><pre class=\"trace\">\(Markup.escape(rest))</pre>"
            + "</details>"
    }

    /// `--race-share` and `--mix` of the run's command line, which replay needs to regenerate it.
    static func replayOptions(_ manifest: RunManifest?) -> String {
        var text = ""
        for name in [Option.raceShare.name, Option.mix.name] {
            if let value = ReportData.option(name, in: manifest?.commandLine ?? []) {
                text += " \(name) " + shellQuoted(value)
            }
        }
        return text
    }

    /// `text` as one POSIX shell word.
    static func shellQuoted(_ text: String) -> String {
        let safe = text.unicodeScalars.allSatisfy {
            $0.isASCII
                && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_./,:=".unicodeScalars.contains($0))
        }
        return safe && !text.isEmpty ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// The coverage.csv row kinds Tests/Coverage/check_coverage.py holds to a minimum (`make
    /// coverage-check`: `--kind path --kind point`, for `core`): the rows the page shows by
    /// default; the rest fold away.
    static let checkedCoverageKinds: Set<String> = [CoverageKey.path, CoverageKey.point]

    static func coverage(_ table: CSVTable, into page: inout Page) {
        page.section("coverage", "Coverage: least exercised")
        let countColumn = ["journeys", "count"].first { table.header.contains($0) }
        var rows = table.rows.map { $0.map(CSVWriter.unneutralised) }
        if let countColumn, let index = table.header.firstIndex(of: countColumn) {
            rows.sort { (Double($0[index]) ?? 0, $0.joined()) < (Double($1[index]) ?? 0, $1.joined()) }
            page.paragraph(
                "The decision paths and schedule points of the strategies under test that make coverage-check "
                    + "holds to a minimum, with the fewest \(countColumn) (coverage.csv) first; zero means never "
                    + "exercised. The rows nothing checks (journey features, interleaved pairs, the peers) are "
                    + "folded below.",
                className: "guide"
            )
        }
        let numeric = Set(table.header.indices.filter { column in rows.allSatisfy { Double($0[column]) != nil } })
        let countIndex = countColumn.flatMap { table.header.firstIndex(of: $0) }
        let strategyIndex = table.header.firstIndex(of: "strategy")
        let kindIndex = table.header.firstIndex(of: "kind")
        // Without the columns to tell (an old coverage.csv), every row counts as checked.
        func isChecked(_ row: [String]) -> Bool {
            guard let strategyIndex, let kindIndex else { return true }
            return RunVerdict.isUnderTest(row[strategyIndex]) && checkedCoverageKinds.contains(row[kindIndex])
        }
        let checked = rows.filter(isChecked)
        let unchecked = rows.filter { !isChecked($0) }
        let shown = Array(checked.prefix(tableRows))
        page.table(
            header: table.header,
            rows: shown,
            numeric: numeric,
            alarming: { row, column in column == countIndex && Double(shown[row][column]) == 0 },
            id: "coverage-table"
        )
        if checked.count > shown.count {
            page.paragraph("\(checked.count - shown.count) more checked rows in coverage.csv.", className: "guide")
        }
        if !unchecked.isEmpty {
            page.raw("<details id=\"coverage-unchecked\"><summary>\(unchecked.count) rows nothing checks")
            page.raw(" (the first \(Swift.min(unchecked.count, tableRows)))</summary>\n")
            page.table(header: table.header, rows: Array(unchecked.prefix(tableRows)), numeric: numeric)
            page.raw("</details>\n")
        }
        page.endSection()
    }
}
