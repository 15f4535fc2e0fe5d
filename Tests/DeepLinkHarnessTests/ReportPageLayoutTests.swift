import DeepLinkHarness
import Foundation
import SanitizerTraits
import Testing

/// Issue 35 item 5: the page (and summary.md) put the strategies under test first and the peers'
/// expected failures apart; long traces and the coverage rows nothing checks fold away.
@Suite(.startsNoThread) struct ReportPageLayoutTests {
    static func page(_ report: RunReport, _ name: String) throws -> (html: String, markdown: String) {
        let directory = ReportFixtures.temporaryDirectory(name)
        defer { ReportFixtures.remove(directory) }
        try ReportWriter.write(report, to: directory)
        let written = try ReportCommand.write(directory: directory)
        return (try ReportCommandTests.contents(written.html), try ReportCommandTests.contents(written.markdown))
    }

    /// The text between `start` and the next `end` after it.
    static func part(_ text: String, from start: String, to end: String) throws -> Substring {
        let open = try #require(text.range(of: start), "\(start)")
        let close = try #require(text[open.upperBound...].range(of: end), "\(end)")
        return text[open.lowerBound..<close.upperBound]
    }

    @Test func strategiesUnderTestComeFirstAndThePeersFailuresApart() throws {
        // Peers first in the report: the page reorders.
        let report = ReportFixtures.report(strategies: [
            ReportFixtures.strategy("naive", violations: 40),
            ReportFixtures.strategy("core", violations: 2),
            ReportFixtures.strategy("exec:mine"),
        ])
        let (html, markdown) = try Self.page(report, "layout")
        #expect(!html.contains("violations (all strategies)"))
        #expect(html.contains("violations (core, exec:mine)<b class=\"alarm\">2</b>"), "\(html.prefix(4000))")
        #expect(html.contains("expected failures of the peers<b>40</b>"))
        let underTest = try Self.part(html, from: "<table id=\"headline-table\">", to: "</table>")
        #expect(underTest.contains(">core<") && underTest.contains(">exec:mine<") && !underTest.contains(">naive<"))
        let peers = try Self.part(html, from: "<table id=\"peers-table\">", to: "</table>")
        #expect(peers.contains(">naive<") && !peers.contains(">core<"))
        #expect(!peers.contains("class=\"num alarm\""), "a peer's failures are not flagged")
        // The outcome bars: core's first, naive's note says expected and is not red.
        let bars = try Self.part(html, from: "id=\"chart-outcomes\"", to: "</svg>")
        let core = try #require(bars.range(of: ">core</text>"))
        let naive = try #require(bars.range(of: ">naive</text>"))
        #expect(core.lowerBound < naive.lowerBound)
        #expect(bars.contains("class=\"note\">40 expected failures (0.40%)</text>"), "\(bars)")
        #expect(bars.contains("class=\"note alarm\">2 violations (0.02%)</text>"))
        // Violations: core's in the open, the peers' in one collapsed block after them.
        let violations = try Self.part(html, from: "<section id=\"violations\">", to: "</section>")
        let folded = try Self.part(String(violations), from: "<details id=\"peer-violations\">", to: "</details>\n")
        #expect(folded.contains("<h3>naive: 40 recorded</h3>") && !folded.contains("<h3>core"))
        let coreHeading = try #require(violations.range(of: "<h3>core: 2 recorded</h3>"))
        let fold = try #require(violations.range(of: "<details id=\"peer-violations\">"))
        #expect(coreHeading.lowerBound < fold.lowerBound)
        // summary.md: core's violations flagged under Violations, the peers' apart and unflagged.
        #expect(markdown.contains("| core | 10,000 | 5,000 | **2** ❌ |"), "\(markdown)")
        #expect(markdown.contains("| naive | 10,000 | 5,000 | 40 |"), "\(markdown)")
        let peersHeading = try #require(markdown.range(of: "### Expected failures of the peers"))
        let coreLine = try #require(markdown.range(of: "- **core**: 2"))
        let naiveLine = try #require(markdown.range(of: "- **naive**: 40"))
        #expect(coreLine.lowerBound < peersHeading.lowerBound && peersHeading.lowerBound < naiveLine.lowerBound)
    }

    @Test func longTracesFoldAfterTheirFirstLines() {
        let long = ReportPage.trace("tap; install; launch; capture; login; route")
        #expect(long.hasPrefix("<pre class=\"trace\">tap\ninstall\nlaunch</pre><details class=\"trace-rest\">"))
        #expect(long.contains("<summary>3 more lines</summary><pre class=\"trace\">capture\nlogin\nroute</pre>"))
        // One line more than shown is not worth a fold.
        #expect(
            ReportPage.trace("tap; install; launch; route") == "<pre class=\"trace\">tap\ninstall\nlaunch\nroute</pre>"
        )
    }

    @Test func coverageRowsNothingChecksLeaveTheDefaultView() throws {
        var core = ReportFixtures.strategy("core")
        core.coverage = [
            CoverageKey(kind: CoverageKey.path, name: "routed-at-once"): 10,
            CoverageKey(kind: CoverageKey.point, name: "afterCapture"): 20,
            CoverageKey(kind: CoverageKey.pair, name: "afterCapture/beforeRoute"): 0,
            CoverageKey(kind: CoverageKey.feature, name: "source:clip"): 5,
        ]
        var naive = ReportFixtures.strategy("naive")
        naive.coverage = [CoverageKey(kind: CoverageKey.feature, name: "source:clip"): 5]
        let (html, _) = try Self.page(ReportFixtures.report(strategies: [core, naive]), "coverage-fold")
        let shown = try Self.part(html, from: "<table id=\"coverage-table\">", to: "</table>")
        #expect(shown.contains("routed-at-once") && shown.contains(">afterCapture<"))
        #expect(!shown.contains("afterCapture/beforeRoute") && !shown.contains("source:clip"))
        let folded = try Self.part(html, from: "<details id=\"coverage-unchecked\">", to: "</details>")
        #expect(folded.contains("<summary>3 rows nothing checks"))
        #expect(folded.contains("afterCapture/beforeRoute") && folded.contains(">naive<"))
    }
}
