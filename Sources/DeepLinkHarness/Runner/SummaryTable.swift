/// The table `run` prints on stdout, one row per strategy, from the report it wrote (so the
/// terminal shows summary.csv's numbers). By default at most ``maximumWidth`` columns: journeys/s,
/// whole-journey p50 and p99 of the non-racing and the racing journeys, violations. `--wide` adds
/// every outcome's count (named as in outcomes.csv: ``JourneyOutcome/name``).
///
/// Thread safety: stateless.
enum SummaryTable {
    /// The widest line the default table prints (a terminal's usual width is 80 to 120).
    static let maximumWidth = 100
    /// Longer strategy names (an `exec:` name may have 69 characters) are cut to this, with `…`;
    /// summary.csv has them whole.
    static let strategyWidth = 24

    /// The outcome columns of the wide table, in order; `rejected` sums every reason.
    static let wideOutcomes: [JourneyOutcome?] = [
        .routed, .superseded, .misrouted, .stale, .unsafe, .duplicated, .premature, .lost, .late, .misjudged, .hung,
        .trapped, .expired, nil, .organic, .notSet, .noLink, .crashWindow,
    ]

    static func render(_ result: RunResult, report: RunReport, wide: Bool) -> String {
        let configuration = result.configuration
        var text = "\n\(ReportFormat.grouped(Double(configuration.journeys))) journeys, seed \(configuration.seed), "
        text += "\(configuration.threads) threads, race share \(configuration.raceShare), "
        text += "schedule \(configuration.schedule.name), "
        text += "wall \(String(Double(result.wallNanos / 1_000_000) / 1000)) s\n"
        if wide {
            text += Self.wide(report)
            text +=
                "violations = " + Outcome.violations.joined(separator: " + ") + "\n"
                + "journeys/s = journeys / (time in strategy / threads)\n"
        } else {
            text += Self.compact(report)
            text += "journeys/s: per second of time inside the strategy, per thread. Latency: whole journey.\n"
            text += "Every outcome: --wide, or summary.csv.\n"
        }
        let inOrder = result.tallies.filter { !$0.kind.racesOnTwoThreads && $0.racingJourneys > 0 }
        if !inOrder.isEmpty {
            text += "racing journeys delivered in order, not raced (one pipe; Docs/Protocol.md): "
            text += inOrder.map { shortened($0.kind.rawValue) }.joined(separator: ", ") + "\n"
        }
        text += leastCovered(result)
        return text
    }

    /// strategy, journeys/s, p50 and p99 of non-racing and racing journeys, violations.
    static func compact(_ report: RunReport) -> String {
        let header = ["strategy", "journeys/s", "p50", "p99", "p50", "p99", "violations"]
        let rows = report.strategies.map { strategy -> [String] in
            func latency(_ metric: String, _ percentile: Double) -> String {
                guard let histogram = strategy.histograms[metric], histogram.count > 0 else { return "-" }
                return ReportFormat.nanos(Double(histogram.value(atPercentile: percentile)))
            }
            return [
                shortened(strategy.name), ReportFormat.grouped(strategy.journeysPerSecond.rounded()),
                latency(Metric.journeyNonRacing, 50), latency(Metric.journeyNonRacing, 99),
                latency(Metric.journeyRacing, 50), latency(Metric.journeyRacing, 99),
                ReportFormat.grouped(Double(strategy.violationCount)),
            ]
        }
        let widths = self.widths(header, rows)
        // The group labels over the two latency pairs, right-aligned over them.
        let lead = widths[0] + 2 + widths[1]
        let pair = [widths[2] + 2 + widths[3], widths[4] + 2 + widths[5]]
        var groups = String(repeating: " ", count: lead)
        for (label, width) in zip(["non-racing", "racing"], pair) {
            groups += "  " + String(repeating: " ", count: max(0, width - label.count)) + label
        }
        return groups + "\n" + table(header, rows, widths: widths)
    }

    /// strategy, journeys/s, every outcome, violations.
    static func wide(_ report: RunReport) -> String {
        let header =
            ["strategy", "journeys/s"] + wideOutcomes.map { $0?.name ?? Outcome.rejectedPrefix } + ["violations"]
        let rows = report.strategies.map { strategy -> [String] in
            let totals = strategy.outcomeTotals
            return [strategy.name, String(Int(strategy.journeysPerSecond.rounded()))]
                + wideOutcomes.map { outcome in
                    String(totals[Outcome.summaryColumn(for: outcome?.name ?? Outcome.rejectedPrefix), default: 0])
                } + [String(strategy.violationCount)]
        }
        return table(header, rows, widths: widths(header, rows))
    }

    static func shortened(_ name: String) -> String {
        name.count <= strategyWidth ? name : String(name.prefix(strategyWidth - 1)) + "…"
    }

    static func widths(_ header: [String], _ rows: [[String]]) -> [Int] {
        var widths = header.map(\.count)
        for row in rows { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
        return widths
    }

    /// The header, a rule and the rows: the first column left-aligned, the others right-aligned.
    static func table(_ header: [String], _ rows: [[String]], widths: [Int]) -> String {
        func line(_ cells: [String]) -> String {
            var text = ""
            for (index, cell) in cells.enumerated() {
                let pad = String(repeating: " ", count: widths[index] - cell.count)
                text += index == 0 ? cell + pad : "  " + pad + cell
            }
            return text + "\n"
        }
        return line(header) + line(widths.map { String(repeating: "-", count: $0) }) + rows.map(line).joined()
    }

    /// The (at most three) decision paths `core` took in the fewest journeys (see coverage.csv).
    static func leastCovered(_ result: RunResult) -> String {
        guard let core = result.tallies.first(where: { $0.kind.reportsDecisionPaths }) else { return "" }
        let ranked = DecisionPaths.named.indices.sorted { core.coverage.paths[$0] < core.coverage.paths[$1] }
        var line = "least exercised core paths (journeys):"
        // Up to three, as many as fit the width.
        for (rank, index) in ranked.prefix(3).enumerated() {
            let entry = (rank == 0 ? " " : ", ") + "\(DecisionPaths.named[index].name) \(core.coverage.paths[index])"
            guard line.count + entry.count <= maximumWidth else { break }
            line += entry
        }
        return line + "\n"
    }
}
