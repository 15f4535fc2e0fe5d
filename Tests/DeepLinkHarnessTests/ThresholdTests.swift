import DeepLinkHarness
import Foundation
import Testing

@Suite struct ThresholdTests {
    @Test func parsesStrategyMetricComparisonAndBoundWithUnits() throws {
        let p99 = try Threshold.parse("core.p99<2ms")
        #expect(p99.strategy == "core")
        #expect(p99.metric == .p99)
        #expect(p99.comparison == .less)
        #expect(p99.bound == 2_000_000)
        #expect(p99.expression == "core.p99<2ms")

        let rate = try Threshold.parse(" core.journeys_per_s >= 100000.5 ")
        #expect(rate.metric == .journeysPerSecond)
        #expect(rate.comparison == .greaterOrEqual)
        #expect(rate.bound == 100_000.5)
        #expect(rate.expression == "core.journeys_per_s>=100000.5")

        // An exec name may hold dots: the metric is after the last one.
        let exec = try Threshold.parse("exec:my.impl.violations==0")
        #expect(exec.strategy == "exec:my.impl")
        #expect(exec.metric == .violations)
        #expect(exec.comparison == .equal)

        for (text, nanos) in [("1ns", 1.0), ("1.5us", 1_500), ("3µs", 3_000), ("2ms", 2e6), ("1s", 1e9)] {
            #expect(try Threshold.parse("core.racing_p99<=\(text)").bound == nanos, "\(text)")
        }
        #expect(try Threshold.parse("naive.non_racing_p50>0ns").comparison == .greater)
    }

    @Test func badExpressionsAreNamedErrorsSayingWhatToFix() {
        func error(_ text: String) -> ThresholdError? {
            do {
                _ = try Threshold.parse(text)
                return nil
            } catch {
                return error
            }
        }
        #expect(error("core.p99") == .noComparison("core.p99"))
        #expect(error("p99<2ms") == .noStrategy("p99<2ms"))
        #expect(error(".p99<2ms") == .noStrategy(".p99<2ms"))
        #expect(error("core.p95<2ms") == .unknownMetric(expression: "core.p95<2ms", metric: "p95"))
        for (text, bound) in [
            ("core.p99<2", "2"), ("core.p99<2min", "2min"), ("core.p99<-2ms", "-2ms"), ("core.p99<ms", "ms"),
            ("core.violations==0.5", "0.5"), ("core.violations==-1", "-1"), ("core.violations==1e3", "1e3"),
            ("core.journeys_per_s>0x10", "0x10"), ("core.journeys_per_s>10ms", "10ms"),
            ("core.journeys_per_s>inf", "inf"), ("core.violations==", ""),
        ] {
            guard case .badBound(_, let found, _)? = error(text) else {
                Issue.record("\(text) was not refused for its bound")
                continue
            }
            #expect(found == bound)
        }
        #expect(error("core.p99<2ms")?.message == nil)
        #expect(error("core.p95<2ms")?.message.contains("p50, p99, p999") == true)
        #expect(error("core.p99<2")?.message.contains("ns, us, µs, ms or s") == true)
    }

    /// The default thresholds hold the strategies under test (core, exec:) to no violations and
    /// leave the peers alone; a failing one makes the verdict FAIL with exit 1.
    @Test func theVerdictJudgesTheStrategiesUnderTestOnly() throws {
        var report = ReportFixtures.report(strategies: [
            ReportFixtures.strategy("core"), ReportFixtures.strategy("naive", violations: 700),
            ReportFixtures.strategy("exec:mine", violations: 3),
        ])
        report.thresholds = RunVerdict.thresholds(strategies: report.strategies.map(\.name), extra: [])
        #expect(report.thresholds.map(\.expression) == ["core.violations==0", "exec:mine.violations==0"])
        var verdict = RunVerdict(report)
        #expect(verdict.state == .fail)
        #expect(verdict.exitStatus == 1)
        #expect(verdict.line == "verdict: FAIL — exec:mine: 3 violations (threshold exec:mine.violations==0)")

        report.strategies[2] = ReportFixtures.strategy("exec:mine")
        verdict = RunVerdict(report)
        #expect(verdict.exitStatus == 0)
        #expect(
            verdict.line
                == "verdict: PASS — 0 violations in core, exec:mine (under test); peers reported, not judged"
        )

        // A threshold on a peer is judged; one already among the defaults is not repeated.
        let onPeer = try Threshold.parse("naive.violations<=699")
        report.thresholds = RunVerdict.thresholds(
            strategies: report.strategies.map(\.name),
            extra: [onPeer, .noViolations("core")]
        )
        #expect(report.thresholds.count == 3)
        verdict = RunVerdict(report)
        #expect(verdict.line == "verdict: FAIL — naive: 700 violations (threshold naive.violations<=699)")

        // Every peer judged: no peer is left "reported, not judged".
        report.strategies[1] = ReportFixtures.strategy("naive", violations: 699)
        verdict = RunVerdict(report)
        #expect(verdict.line == "verdict: PASS — 0 violations in core, exec:mine (under test), 1 more threshold met")

        let peersOnly = ReportFixtures.report(strategies: [ReportFixtures.strategy("naive", violations: 9)])
        #expect(RunVerdict(peersOnly).state == .nothingJudged)
        #expect(RunVerdict(peersOnly).exitStatus == 0)
        #expect(RunVerdict(peersOnly).line.hasPrefix("verdict: NONE — nothing judged"))
    }

    /// Latency and rate thresholds read the report's histograms and rate; a histogram the report
    /// lacks (no racing journeys) fails the threshold.
    @Test func latencyAndRateThresholdsReadTheReport() throws {
        var core = ReportFixtures.strategy("core", journeys: 1_000)
        var racing = Histogram()
        for value in 1...100 { racing.record(UInt64(value) * 1_000) }
        core.histograms[Metric.journeyRacing] = racing
        let report = ReportFixtures.report(strategies: [core])
        let journey = try #require(core.histograms[Metric.journey])

        let p99 = Double(journey.value(atPercentile: 99))
        #expect(try Threshold.parse("core.p99<=\(Int(p99))ns").evaluate(report).passed)
        #expect(try !Threshold.parse("core.p99<\(Int(p99))ns").evaluate(report).passed)
        #expect(try Threshold.parse("core.p99<1ms").evaluate(report).observed == p99)

        let racingP99 = try Threshold.parse("core.racing_p99<99us").evaluate(report)
        #expect(racingP99.observed == Double(racing.value(atPercentile: 99)))
        #expect(!racingP99.passed)

        let none = try Threshold.parse("core.non_racing_p99<1s").evaluate(report)
        #expect(none.observed == nil)
        #expect(!none.passed)
        #expect(none.shown == "-")

        // 1,000 journeys over 2 s: 500 journeys per second.
        #expect(try Threshold.parse("core.journeys_per_s==500").evaluate(report).passed)
        #expect(try !Threshold.parse("core.journeys_per_s>500").evaluate(report).passed)
    }

    /// thresholds.csv is written with the report, read back, and held to the other files: an
    /// edited observed value or verdict is refused.
    @Test func thresholdsCSVRoundTripsAndIsCheckedAgainstTheReport() throws {
        let directory = ReportFixtures.temporaryDirectory("thresholds")
        defer { ReportFixtures.remove(directory) }
        var report = ReportFixtures.report(strategies: [
            ReportFixtures.strategy("core", violations: 2), ReportFixtures.strategy("naive"),
        ])
        report.thresholds = RunVerdict.thresholds(
            strategies: report.strategies.map(\.name),
            extra: [try Threshold.parse("core.p99<1s")]
        )
        try ReportWriter.write(report, to: directory)
        let read = try ReportReader.read(directory)
        #expect(read.thresholds == report.thresholds)
        let path = directory + "/" + ReportSchema.thresholdsFile
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix("expression,strategy,metric,bound,observed,passed\r\n"))
        #expect(text.contains("core.violations==0,core,violations,0.000,2,0\r\n"))

        // Claim the failed threshold passed, re-seal: the reader derives it again and refuses.
        try Data(text.replacingOccurrences(of: ",2,0\r\n", with: ",2,1\r\n").utf8).write(
            to: URL(fileURLWithPath: path)
        )
        try ReportFixtures.reseal(directory)
        #expect(throws: ReportError.self) { try ReportReader.read(directory) }
    }

    /// report.html and summary.md show the verdict and every threshold with what was observed.
    @Test func thePageAndTheMarkdownShowTheThresholds() throws {
        let directory = ReportFixtures.temporaryDirectory("verdict-page")
        defer { ReportFixtures.remove(directory) }
        var report = ReportFixtures.report(strategies: [
            ReportFixtures.strategy("core", violations: 1_234), ReportFixtures.strategy("naive", violations: 9),
        ])
        report.thresholds = RunVerdict.thresholds(
            strategies: report.strategies.map(\.name),
            extra: [try Threshold.parse("core.p99<1s")]
        )
        try ReportWriter.write(report, to: directory)
        let data = try ReportData.load(directory: directory)
        let verdict = try #require(data.run?.verdict)
        #expect(verdict.state == .fail)
        let html = ReportPage.html(data)
        #expect(html.contains("<section id=\"verdict\">"))
        #expect(html.contains("core: 1,234 violations (threshold core.violations==0)"))
        #expect(html.contains("<td class=\"alarm\">core.violations==0</td>"))
        #expect(html.contains("<td>core.p99&lt;1s</td>"))
        let markdown = MarkdownSummary.markdown(data)
        #expect(markdown.contains("### Verdict: FAIL ❌"))
        #expect(markdown.contains("| core.violations==0 | 1,234 | **fail** ❌ |"))
        #expect(markdown.contains("| core.p99&lt;1s |"))

        // A merged report (no thresholds) has no verdict section.
        report.thresholds = []
        try ReportWriter.write(report, to: directory)
        let none = try ReportData.load(directory: directory)
        #expect(none.run?.verdict == nil)
        #expect(!ReportPage.html(none).contains("id=\"verdict\""))
    }

    /// summary.json holds summary.csv's facts (every column, by the same name; outcomes by their
    /// one name), latency.csv's percentiles and the verdict; the reader holds it to the others.
    @Test func summaryJSONHasSummaryCSVsFacts() throws {
        let directory = ReportFixtures.temporaryDirectory("summary-json")
        defer { ReportFixtures.remove(directory) }
        var report = ReportFixtures.report(strategies: [
            ReportFixtures.strategy("core"), ReportFixtures.strategy("exec:x\"y", violations: 4),
        ])
        report.thresholds = RunVerdict.thresholds(strategies: report.strategies.map(\.name), extra: [])
        try ReportWriter.write(report, to: directory)
        let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + ReportSchema.summaryJSONFile))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let run = try #require(json["run"] as? [String: Any])
        let strategies = try #require(json["strategies"] as? [[String: Any]])
        let summary = try RunCommandTests.table(directory, ReportSchema.summaryFile)
        #expect(strategies.count == summary.rows.count)
        let outcomeColumns = Dictionary(uniqueKeysWithValues: Outcome.summaryColumns.map { ($0.column, $0.outcome) })
        for (row, strategy) in strategies.enumerated() {
            let outcomes = try #require(strategy["outcomes"] as? [String: Any])
            for (column, name) in summary.header.enumerated() {
                let cell = summary.rows[row][column]
                let found: Any? =
                    if let outcome = outcomeColumns[name] { outcomes[outcome] } else { strategy[name] ?? run[name] }
                let text = try #require(found.map { "\($0)" }, "\(name) missing")
                if let number = Double(cell) {
                    #expect((found as? NSNumber)?.doubleValue == number, "\(name): \(text) vs \(cell)")
                } else {
                    #expect(text == CSVWriter.unneutralised(cell), "\(name)")
                }
            }
            #expect(outcomes["crashWindow"] != nil && outcomes["notSet"] != nil)
            let latency = try #require(strategy["latency_ns"] as? [String: [String: Any]])
            let journey = try #require(report.strategies[row].histograms[Metric.journey])
            #expect((latency["journey"]?["p99"] as? NSNumber)?.uint64Value == journey.value(atPercentile: 99))
            #expect((latency["journey"]?["count"] as? NSNumber)?.uint64Value == journey.count)
        }
        #expect(json["verdict"] as? String == "FAIL")
        let thresholds = try #require(json["thresholds"] as? [[String: Any]])
        #expect(thresholds.map { $0["passed"] as? Bool } == [true, false])
        #expect(thresholds.last?["observed"] as? Int == 4)

        // Read back whole; an edited summary.json is refused even re-sealed.
        #expect(try ReportReader.read(directory).thresholds == report.thresholds)
        let edited = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\"FAIL\"", with: "\"PASS\"")
        try Data(edited.utf8).write(to: URL(fileURLWithPath: directory + "/" + ReportSchema.summaryJSONFile))
        try ReportFixtures.reseal(directory)
        #expect(throws: ReportError.self) { try ReportReader.read(directory) }
    }

    /// The reader holds journey_racing and journey_non_racing to the journeys they split: their
    /// counts add up to the timed journeys and the racing one is summary.csv's racing_journeys.
    @Test func racingAndNonRacingHistogramsMustSplitTheJourneys() throws {
        let directory = ReportFixtures.temporaryDirectory("racing-split")
        defer { ReportFixtures.remove(directory) }
        func report(racingJourneys: UInt64) -> RunReport {
            var core = ReportFixtures.strategy("core", journeys: 1_000)
            var racing = Histogram()
            var other = Histogram()
            for index in 0..<1_000 {
                if index < 100 { racing.record(5_000) } else { other.record(500) }
            }
            core.histograms[Metric.journeyRacing] = racing
            core.histograms[Metric.journeyNonRacing] = other
            core.costs.racingJourneys = racingJourneys
            return ReportFixtures.report(strategies: [core])
        }
        try ReportWriter.write(report(racingJourneys: 100), to: directory)
        #expect(try ReportReader.read(directory).strategies[0].histograms[Metric.journeyRacing]?.count == 100)
        try ReportWriter.write(report(racingJourneys: 99), to: directory)
        do {
            _ = try ReportReader.read(directory)
            Issue.record("a racing histogram of 100 for 99 racing journeys was read")
        } catch {
            #expect("\(error)".contains("journey_racing and journey_non_racing hold 100 and 900"), "\(error)")
        }
    }

    /// A thresholds.csv naming a strategy the run does not have is refused.
    @Test func thresholdsOnAnotherRunsStrategyAreRefused() throws {
        let directory = ReportFixtures.temporaryDirectory("thresholds-strategy")
        defer { ReportFixtures.remove(directory) }
        var report = ReportFixtures.report(strategies: [ReportFixtures.strategy("core")])
        report.thresholds = [.noViolations("core")]
        try ReportWriter.write(report, to: directory)
        let path = directory + "/" + ReportSchema.thresholdsFile
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "core.violations==0,core", with: "naive.violations==0,naive").utf8)
            .write(to: URL(fileURLWithPath: path))
        try ReportFixtures.reseal(directory)
        do {
            _ = try ReportReader.read(directory)
            Issue.record("a threshold on naive was read in a run of core alone")
        } catch {
            #expect("\(error)".contains("names strategy 'naive', which is not in summary.csv"), "\(error)")
        }
    }
}
