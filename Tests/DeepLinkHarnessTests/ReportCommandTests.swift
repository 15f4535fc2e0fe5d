import DeepLinkHarness
import Foundation
import SanitizerTraits
import Testing

@Suite(.judgesReportFiles) struct ReportCommandTests {
    static func bench(_ arguments: [String]) -> (status: Int32, out: String, err: String) {
        var out = ""
        var err = ""
        let io = CommandIO(stdout: { out += $0 }, stderr: { err += $0 })
        let status = DeepLinkBench.main(arguments: arguments, io: io)
        return (status, out, err)
    }

    static func contents(_ path: String) throws -> String {
        String(decoding: try #require(FileManager.default.contents(atPath: path)), as: UTF8.self)
    }

    /// A report directory whose strategies include hostile text and an outcome no list in the code
    /// knows (`hung`), recorded as a violation.
    static func fixture(_ name: String) throws -> String {
        let directory = ReportFixtures.temporaryDirectory(name)
        var hostile = ReportFixtures.strategy("<img src=x onerror=alert(1)>", violations: 3)
        // Seven more journeys, hung (untimed: the histograms keep their 10,000 values).
        hostile.outcomeCounts[OutcomeKey(scenarioClass: "ios/clip/<b>bold</b>", outcome: "hung")] = 7
        hostile.journeys += 7
        hostile.violations.append(
            ViolationRecord(
                strategy: hostile.name,
                seed: 1,
                journey: 2,
                scenarioClass: "ios/clip/<b>bold</b>",
                expected: "routed",
                actual: "hung",
                trace: "tap</pre><script>alert(2)</script>; launch@3"
            )
        )
        let report = ReportFixtures.report(strategies: [ReportFixtures.strategy("core"), hostile])
        try ReportWriter.write(report, to: directory)
        return directory
    }

    @Test func writesAPageWithEveryRunSectionAndNoInjectedMarkup() throws {
        let directory = try Self.fixture("page")
        defer { ReportFixtures.remove(directory) }
        let result = Self.bench(["report", directory])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("report.html"))
        let html = try Self.contents(directory + "/report.html")
        for id in [
            "chart-outcomes", "scenario-classes", "chart-spectrum-journey", "chart-spectrum-parse",
            "chart-histogram-journey", "chart-allocations", "id=\"violations\"", "headline-table", "environment",
        ] {
            #expect(html.contains(id), "missing \(id)")
        }
        // Data never becomes markup.
        #expect(!html.contains("<img"))
        #expect(!html.contains("<script"))
        #expect(!html.contains("<b>bold"))
        #expect(html.contains("&lt;img src=x onerror=alert(1)&gt;"))
        // No script, no network resources.
        for reference in ["<link", " src=\"", "href=\"http", "url(http", "@import", "<script"] {
            #expect(!html.contains(reference), "\(reference)")
        }
        // The unknown outcome is shown, and as a violation (violations.csv says so).
        #expect(html.contains("hung <b class=\"alarm\">(violation)</b>"))
        // The replay command of a hostile strategy name is shell-quoted and escaped.
        #expect(html.contains("--strategies &#39;&lt;img src=x onerror=alert(1)&gt;&#39;"))
        // Absent files: no comparison or capacity sections.
        #expect(!html.contains("id=\"comparison\""))
        #expect(!html.contains("id=\"capacity\""))

        let markdown = try Self.contents(directory + "/summary.md")
        #expect(markdown.contains("| core | 10,000 |"))
        #expect(!markdown.contains("<img"))
        #expect(markdown.contains("### Violations"))
    }

    @Test func coverageShowsTheLeastExercisedFirst() throws {
        let directory = ReportFixtures.temporaryDirectory("coverage")
        defer { ReportFixtures.remove(directory) }
        var core = ReportFixtures.strategy("core")
        core.coverage = [
            CoverageKey(kind: CoverageKey.feature, name: "clipboard"): 120,
            CoverageKey(kind: CoverageKey.path, name: "<never>"): 0,
            CoverageKey(kind: CoverageKey.feature, name: "referrer"): 5000,
        ]
        try ReportWriter.write(ReportFixtures.report(strategies: [core]), to: directory)
        let result = Self.bench(["report", directory, "--out", directory + "/page.html"])
        #expect(result.status == 0, "\(result.err)")
        let html = try Self.contents(directory + "/page.html")
        #expect(html.contains("id=\"coverage\""))
        // Least exercised first.
        let never = try #require(html.range(of: "&lt;never&gt;"))
        let clipboard = try #require(html.range(of: ">clipboard<"))
        #expect(never.lowerBound < clipboard.lowerBound)
        #expect(FileManager.default.fileExists(atPath: directory + "/summary.md"))
    }

    @Test func missingOrGarbledDirectoriesAreNamedErrors() throws {
        let missing = Self.bench(["report", "/nonexistent/run-dir"])
        #expect(missing.status == 2)
        #expect(missing.err.contains("/nonexistent/run-dir"))

        let empty = ReportFixtures.temporaryDirectory("empty")
        defer { ReportFixtures.remove(empty) }
        let nothing = Self.bench(["report", empty])
        #expect(nothing.status == 2)
        #expect(nothing.err.contains("summary.csv"))

        let directory = try Self.fixture("garbled")
        defer { ReportFixtures.remove(directory) }
        try Data("run_id,strategy\r\n\"unterminated\r\n".utf8).write(
            to: URL(fileURLWithPath: directory + "/summary.csv")
        )
        let garbled = Self.bench(["report", directory])
        #expect(garbled.status == 2)
        #expect(garbled.err.contains("summary.csv"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/report.html"))
    }

    @Test func gatePrintsMarkdownAndWritesTheComparison() throws {
        let baseline = try Self.fixture("gate-baseline")
        let current = try Self.fixture("gate-current")
        defer {
            ReportFixtures.remove(baseline)
            ReportFixtures.remove(current)
        }
        let result = Self.bench(["gate", "--baseline", baseline, "--current", current, "--format", "markdown"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.hasPrefix("## deeplink-bench report"))
        #expect(result.out.contains("### Gate: PASS"))
        #expect(!result.out.contains("INCONCLUSIVE"))  // the text table went to stderr, not stdout
        let html = try Self.contents(current + "/report.html")
        #expect(html.contains("id=\"comparison\""))
        #expect(html.contains("chart-comparison"))

        let bad = Self.bench(["gate", "--baseline", baseline, "--current", current, "--format", "yaml"])
        #expect(bad.status == 2)
    }

    @Test func reportAgainstABaselineComparesAndNoReportSkips() throws {
        let baseline = try Self.fixture("cmp-baseline")
        let current = try Self.fixture("cmp-current")
        defer {
            ReportFixtures.remove(baseline)
            ReportFixtures.remove(current)
        }
        let result = Self.bench(["report", current, "--baseline", baseline])
        #expect(result.status == 0, "\(result.err)")
        let html = try Self.contents(current + "/report.html")
        #expect(html.contains("chart-comparison"))
        #expect(html.contains("verdict-inconclusive"))

        let merged = ReportFixtures.temporaryDirectory("merged-noreport")
        defer { ReportFixtures.remove(merged) }
        let merge = Self.bench(["merge", "--no-report", "--out", merged, current])
        #expect(merge.status == 0, "\(merge.err)")
        #expect(!FileManager.default.fileExists(atPath: merged + "/report.html"))
        let mergedWithReport = Self.bench(["merge", "--out", merged, current])
        #expect(mergedWithReport.status == 0)
        #expect(mergedWithReport.out.contains("report.html: "))
        let html2 = try Self.contents(merged + "/report.html")
        #expect(html2.contains("id=\"shards\""))
    }

    @Test func pageSizeIsBoundedWhateverTheRunsSize() throws {
        var sizes: [Int] = []
        for journeys in [2_000, 200_000] {
            let directory = ReportFixtures.temporaryDirectory("size-\(journeys)")
            defer { ReportFixtures.remove(directory) }
            let strategies = ["core", "naive", "fingerprint", "clipboard"].map {
                ReportFixtures.strategy($0, journeys: journeys, violations: 1_400)
            }
            try ReportWriter.write(ReportFixtures.report(strategies: strategies), to: directory)
            let written = try ReportCommand.write(directory: directory)
            let html = try #require(FileManager.default.contents(atPath: written.html))
            sizes.append(html.count)
        }
        // A hundred times the journeys (and 1,000 violation rows per strategy either way): about the
        // same page, far below 2 MB.
        #expect(sizes[1] < 2_000_000)
        #expect(Double(sizes[1]) < Double(sizes[0]) * 1.2, "\(sizes)")
    }

    @Test func markdownCellsCannotBreakTheTable() {
        #expect(MarkdownSummary.escape("a|b") == "a\\|b")
        #expect(MarkdownSummary.escape("<b>*x*</b>\nnext") == "&lt;b&gt;\\*x\\*&lt;/b&gt; next")
        #expect(MarkdownSummary.escape("[link](http://x)") == "\\[link\\](http://x)")
    }

    /// Also a sweep written before capacity.csv carried the host-speed probe's columns.
    @Test(arguments: [true, false])
    func capacityDirectoriesChartTheKneeAgainstTheObjective(withProbeColumns: Bool) throws {
        let directory = ReportFixtures.temporaryDirectory("capacity")
        defer { ReportFixtures.remove(directory) }
        var manifest = ReportFixtures.manifest()
        manifest.commandLine = ["deeplink-bench", "capacity", "--peak-per-s", "90000", "--slo-p99-ns", "500000"]
        // Each row ends with the step's probe times and disturbance readings (steal, switches, other
        // runnable, disturbed).
        let rows = [
            "1,1000,1000,2000,100000,200000,0,3.00,1", "1,2000,2000,2000,400000,900000,0,3.00,1",
            "1,4000,3900,9000,7000000,9000000,0,3.00,0", "2,2000,2000,2000,100000,300000,0,3.00,1",
            "2,4000,4000,3000,450000,800000,0,3.00,1", "2,8000,7000,9000,9000000,9900000,3,3.00,0",
        ].map { $0 + (withProbeColumns ? ",15.20,15.40" : "") + ",0,0,0.00,0" }
        let header = CapacityReport.columns.map(\.name)
            .filter { withProbeColumns || !Disturbance.probeColumns.contains($0) }.joined(separator: ",")
        let csv = ([header] + rows).joined(separator: "\r\n") + "\r\n"
        try SealedDirectory.write([(CapacityReport.file, Array(csv.utf8))], manifest: manifest, to: directory)
        let result = Self.bench(["report", directory])
        #expect(result.status == 0, "\(result.err)")
        let html = try Self.contents(directory + "/report.html")
        #expect(html.contains("chart-capacity"))
        #expect(html.contains("SLO p99 500 µs"))
        // Knees: 2,000/s with 1 thread, 4,000/s with 2; per core 2,000/s; 90,000/s needs 45 cores.
        #expect(html.contains("knee, 1 thread: 2,000/s"))
        #expect(html.contains("knee, 2 threads: 4,000/s"))
        #expect(html.contains("Rate per core under the objective: 2,000 journeys/s"))
        #expect(html.contains("90,000/s: 45 cores"))
        #expect(!html.contains("id=\"outcomes\""))
        let markdown = try Self.contents(directory + "/summary.md")
        #expect(markdown.contains("| 2 | 4,000 | 450 µs |"))
    }

    @Test func openLoopRunsShowCorrectedAndServiceLinesTogether() throws {
        let directory = ReportFixtures.temporaryDirectory("open-loop")
        defer { ReportFixtures.remove(directory) }
        var core = ReportFixtures.strategy("core", journeys: 1_000)
        var corrected = Histogram()
        for value in 1...1_000 as ClosedRange<UInt64> { corrected.record(value * 1_000) }
        core.histograms[Metric.journeyCorrected] = corrected
        var report = ReportFixtures.report(strategies: [core])
        report.arrivals = ArrivalReport(offeredPerSecond: 2_000)
        try ReportWriter.write(ReportFixtures.named(report), to: directory)
        #expect(Self.bench(["report", directory]).status == 0)
        let html = try Self.contents(directory + "/report.html")
        #expect(html.contains(">core corrected</text>"))
        #expect(html.contains(">core service</text>"))
        #expect(html.contains("stroke-dasharray"))
        // Its own distribution, but no separate spectrum (it is drawn with journey's).
        #expect(html.contains("chart-histogram-journey_corrected"))
        #expect(!html.contains("chart-spectrum-journey_corrected"))
    }

    @Test func aRunDirectoryMissingAListedFileIsRefused() throws {
        let directory = try Self.fixture("old-run")
        defer { ReportFixtures.remove(directory) }
        try FileManager.default.removeItem(atPath: directory + "/" + ReportSchema.histogramsFile)
        let result = Self.bench(["report", directory])
        #expect(result.status == 2)
        #expect(result.err.contains("histograms.csv is missing (manifest.json lists it)"), "\(result.err)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/report.html"))
    }
}
