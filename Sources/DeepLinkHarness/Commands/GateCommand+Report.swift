extension GateCommand {
    /// Where gate.csv went: `--out`, else `--current` (or its first directory).
    var reportDirectory: String {
        output ?? (current.contains(",") ? (try? GateInput.directories(current))?.first ?? current : current)
    }

    /// After the verdict, with `--format markdown`: summary.md on stdout (the table, the verdict
    /// and the page's path went to stderr). An input error (exit 2) has nothing to report.
    func finishReport(status: Int32, io: CommandIO) -> Int32 {
        guard status != 2, markdown else { return status }
        do {
            io.out(MarkdownSummary.markdown(try ReportData.load(directory: reportDirectory)))
        } catch {
            io.err("error: gate: \(error)\n")
            return 2
        }
        return status
    }

    /// Inconclusive lines listed one by one before the rest are summed up (gate.csv has them all).
    static let doubtLinesShown = 10

    /// Why the inconclusive timing checks could not judge (the noise measured, against the
    /// tolerance: a cause common to every check once, the others check by check) and what was
    /// judged instead; "" when every timing check judged.
    package static func doubts(_ checks: [RegressionGate.Check]) -> String {
        let timing = checks.filter { $0.kind == .timing }
        let doubtful = timing.filter { $0.verdict == .inconclusive }
        guard !doubtful.isEmpty else { return "" }
        var text = "inconclusive: \(doubtful.count) of \(timing.count) timing checks could not judge:\n"
        var runWide: [RegressionGate.Doubt] = []
        var single: [String] = []
        for check in doubtful {
            guard let doubt = check.doubt else { continue }
            if doubt.isRunWide {
                if !runWide.contains(doubt) { runWide.append(doubt) }
            } else {
                single.append("  \(JSONString.escaped("\(check.strategy) \(check.metric)")): \(doubt.explanation)\n")
            }
        }
        for doubt in runWide {
            let count = doubtful.filter { $0.doubt == doubt }.count
            text += "  \(count == timing.count ? "all \(count)" : "\(count)"): \(doubt.explanation)\n"
        }
        text += single.prefix(doubtLinesShown).joined()
        if single.count > doubtLinesShown {
            text += "  … and \(single.count - doubtLinesShown) more (gate.csv's detail column)\n"
        }
        let hard = checks.filter { $0.kind == .hard }
        let metrics = hard.map(\.metric).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        let judged = timing.count - doubtful.count
        text += "judged instead: \(hard.count) hard checks (\(metrics.joined(separator: ", ")))"
        text += judged > 0 ? " and \(judged) timing checks" : ", no timing"
        text += "; for a verdict on speed that noise cannot move, count instructions: make gate-hard "
        text += "(gate --instructions)\n"
        return text
    }
}
