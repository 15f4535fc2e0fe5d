/// The human-readable table `run` prints on stdout: one row per strategy.
enum SummaryTable {
    static let columns: [(String, JourneyOutcome?)] = [
        ("routed", .routed), ("superseded", .superseded), ("misrouted", .misrouted), ("stale", .stale),
        ("unsafe", .unsafe), ("duplicated", .duplicated), ("premature", .premature), ("lost", .lost), ("late", .late),
        ("misjudged", .misjudged), ("hung", .hung), ("trapped", .trapped), ("expired", .expired), ("rejected", nil),
        ("organic", .organic),
        ("notSet", .notSet), ("noLink", .noLink), ("crashWin", .crashWindow),
    ]

    static func render(_ result: RunResult) -> String {
        let configuration = result.configuration
        var header = ["strategy", "journeys/s"] + columns.map(\.0) + ["violations"]
        var rows: [[String]] = []
        for tally in result.tallies {
            let effectiveNanos = Double(tally.strategyNanos) / Double(configuration.threads)
            let rate = effectiveNanos > 0 ? Double(tally.journeys) * 1e9 / effectiveNanos : 0
            var row = [tally.kind.rawValue, String(Int(rate.rounded()))]
            for (_, outcome) in columns {
                if let outcome {
                    row.append(String(tally.total(outcome)))
                } else {
                    var rejected: UInt64 = 0
                    for reason in RejectionReason.allCases { rejected &+= tally.total(.rejected(reason)) }
                    row.append(String(rejected))
                }
            }
            row.append(String(tally.violationCount))
            rows.append(row)
        }
        var widths = header.map(\.count)
        for row in rows { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
        func line(_ cells: [String]) -> String {
            var text = ""
            for (index, cell) in cells.enumerated() {
                let pad = String(repeating: " ", count: widths[index] - cell.count)
                text += index == 0 ? cell + pad : "  " + pad + cell
            }
            return text + "\n"
        }
        var text = "\n\(configuration.journeys) journeys, seed \(configuration.seed), "
        text += "\(configuration.threads) threads, race share \(configuration.raceShare), "
        text += "schedule \(configuration.schedule.name), "
        text += "wall \(String(Double(result.wallNanos / 1_000_000) / 1000)) s\n"
        text += line(header)
        header = widths.map { String(repeating: "-", count: $0) }
        text += line(header)
        for row in rows { text += line(row) }
        text +=
            "violations = misrouted + stale + unsafe + duplicated + premature + lost + late + misjudged + hung + trapped; "
            + "journeys/s = journeys / (time in strategy / threads)\n"
        let inOrder = result.tallies.filter { !$0.kind.racesOnTwoThreads && $0.racingJourneys > 0 }
        if !inOrder.isEmpty {
            text += inOrder.map(\.kind.rawValue).joined(separator: ", ")
            text += ": racing journeys delivered in order (one pipe has no race; Docs/Protocol.md)\n"
        }
        text += leastCovered(result)
        return text
    }

    /// The three decision paths `core` took in the fewest journeys (see coverage.csv).
    static func leastCovered(_ result: RunResult) -> String {
        guard let core = result.tallies.first(where: { $0.kind.reportsDecisionPaths }) else { return "" }
        let ranked = DecisionPaths.named.indices.sorted { core.coverage.paths[$0] < core.coverage.paths[$1] }
        let least = ranked.prefix(3).map { "\(DecisionPaths.named[$0].name) \(core.coverage.paths[$0])" }
        return "least exercised decision paths (journeys): " + least.joined(separator: ", ") + "\n"
    }
}
