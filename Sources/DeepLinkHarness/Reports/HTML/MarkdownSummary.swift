/// summary.md: the report in GitHub-flavoured Markdown, sized for a CI step summary or a pull
/// request comment: the headline table, violations, the gate's verdict table and the five largest
/// changes (and the capacity knees when present). Text from the data is escaped (``escape(_:)``),
/// so a strategy name or trace cannot break a table or inject markup.
///
/// Thread safety: stateless.
public enum MarkdownSummary {
    /// How many changes the "largest changes" table lists.
    public static let largestChanges = 5

    public static func markdown(_ data: ReportData) -> String {
        var text = "## deeplink-bench report: \(escape(data.run?.runID ?? data.directory))\n\n"
        if let manifest = data.manifest {
            text += "`\(escape(String(manifest.commit.prefix(12))))` · \(escape(manifest.cpuModel)) · "
            text += "\(manifest.cores) cores · \(escape(manifest.allocator)) · \(escape(manifest.startTime))\n\n"
        }
        if let notice = data.disturbanceNotice { text += "> ⚠️ **\(escape(notice))**\n\n" }
        if let run = data.run {
            text += "Seed \(escape(run.seed)), \(ReportFormat.grouped(run.journeys)) journeys per strategy, "
            text += "\(ReportFormat.grouped(run.threads)) threads, wall \(ReportFormat.nanos(run.wallNanos)), "
            text += "peak RSS \(ReportFormat.bytes(run.peakRSSBytes)).\n\n"
            text += "| strategy | journeys | journeys/s | violations | bytes/journey | journey p99 |\n"
            text += "|---|--:|--:|--:|--:|--:|\n"
            for strategy in run.strategies {
                let p99 = run.histograms[strategy.name]?[Metric.journey].map {
                    ReportFormat.nanos(Double($0.value(atPercentile: 99)))
                }
                let violations = ReportFormat.grouped(strategy.violations)
                text += "| \(escape(strategy.name)) | \(ReportFormat.grouped(strategy.journeys)) | "
                text += "\(ReportFormat.grouped(strategy.journeysPerSecond)) | "
                // A peer's violations are expected: reported, not flagged.
                let flagged = strategy.violations > 0 && RunVerdict.isUnderTest(strategy.name)
                text += (flagged ? "**\(violations)** ❌" : violations) + " | "
                text += "\(ReportSchema.decimal(strategy.bytesPerJourney, digits: 2)) | \(p99 ?? "n/a") |\n"
            }
            if let verdict = run.verdict { text += Self.verdict(verdict) }
            let violating = run.strategies.filter { $0.violations > 0 }
            let underTest = violating.filter { RunVerdict.isUnderTest($0.name) }
            let peers = violating.filter { !RunVerdict.isUnderTest($0.name) }
            text += "\n### Violations\n\n"
            if underTest.isEmpty { text += "None.\n" }
            for strategy in underTest + peers {
                if strategy.name == peers.first?.name {
                    text += "\n### Expected failures of the peers\n\n"
                    text += "The peers are there to be caught: reported, never judged.\n\n"
                }
                text += "- **\(escape(strategy.name))**: \(ReportFormat.grouped(strategy.violations))"
                if let first = run.violations.filter({ $0.strategy == strategy.name }).min(by: {
                    $0.journey < $1.journey
                }) {
                    let command =
                        "deeplink-bench replay --seed \(first.seed) --journey \(first.journey) --strategies "
                        + ReportPage.shellQuoted(strategy.name) + ReportPage.replayOptions(data.manifest)
                    text += "; first: journey \(first.journey) (\(escape(first.scenarioClass)), expected "
                    text += "\(escape(first.expected)), got \(escape(first.actual))): <code>"
                    text += Markup.escape(command) + "</code>"
                }
                text += "\n"
            }
        }
        if !data.checks.isEmpty {
            let failures = data.checks.filter { $0.verdict == "fail" }
            let inconclusive = data.checks.filter { $0.verdict == "inconclusive" }.count
            text += "\n### Gate: " + escape(data.gateVerdict) + (failures.isEmpty ? " ✅" : " ❌")
            text += " (\(data.checks.count) checks, \(failures.count) fail, \(inconclusive) inconclusive)\n\n"
            text += table(data.checks)
            let changes = data.checks.filter { $0.changePercent != nil }.sorted {
                abs($0.changePercent ?? 0) > abs($1.changePercent ?? 0)
            }
            if !changes.isEmpty {
                text += "\n### \(min(largestChanges, changes.count)) largest changes\n\n"
                text += table(Array(changes.prefix(largestChanges)))
            }
        }
        if !data.capacity.isEmpty {
            text += "\n### Capacity (objective p99 ≤ \(ReportFormat.nanos(data.capacityObjectiveNanos)))\n\n"
            text += "| threads | highest rate meeting it (/s) | p99 there |\n|--:|--:|--:|\n"
            let knees = ReportPage.knees(data.capacity)
            for threads in Set(data.capacity.map(\.threads)).sorted() {
                guard let knee = knees[threads] else {
                    text += "| \(threads) | none | |\n"
                    continue
                }
                text += "| \(threads) | \(ReportFormat.grouped(knee.offeredPerSecond)) | "
                text += "\(ReportFormat.nanos(knee.p99Nanos)) |\n"
            }
        }
        return text
    }

    static func table(_ checks: [ReportData.Check]) -> String {
        var text = "| strategy | metric | kind | baseline | current | change | verdict |\n"
        text += "|---|---|---|--:|--:|--:|---|\n"
        for check in checks {
            let verdict = check.verdict == "fail" ? "**fail** ❌" : escape(check.verdict)
            text += "| \(escape(check.strategy)) | \(escape(check.metric)) | \(escape(check.kind)) | "
            text += "\(ReportPage.number(check.baseline)) | \(ReportPage.number(check.current)) | "
            text += "\(check.changePercent.map(ReportFormat.signedPercent) ?? "n/a") | \(verdict) |\n"
        }
        return text
    }

    /// `text` as literal Markdown inline text: HTML-significant characters as entities, Markdown
    /// punctuation backslash-escaped, line breaks as spaces (a table row stays one line).
    public static func escape(_ text: String) -> String {
        var result = ""
        for character in Markup.escape(text) {
            switch character {
            case "\\", "`", "*", "_", "[", "]", "|", "#", "~", "!": result += "\\" + String(character)
            case "\n", "\r", "\r\n", "\t": result += " "
            default: result.append(character)
            }
        }
        return result
    }
}
