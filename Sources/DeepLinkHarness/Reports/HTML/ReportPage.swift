import Foundation

/// report.html: one self-contained page (inline CSS and SVG; no script, no network, no external
/// font) showing everything a ``ReportData`` holds, section by section, each chart with a title,
/// axis labels with units and a one-line reading guide. Hover details are SVG `<title>` tooltips,
/// which browsers show without script. Every text from the data is escaped (``Markup``).
///
/// Colours are Okabe–Ito (distinguishable with the common colour-vision deficiencies); violations
/// are additionally hatched, and lines are labelled by name, so no meaning rests on colour alone.
///
/// Thread safety: stateless.
public enum ReportPage {
    /// Line colours for strategies in run order (Okabe–Ito, without yellow: unreadable as text).
    public static let strategyColours = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#000000"]
    /// Fills for outcomes that are not violations (Okabe–Ito, then greys); violations are hatched.
    public static let outcomeColours = [
        "#0072B2", "#56B4E9", "#009E73", "#F0E442", "#CC79A7", "#999999", "#E69F00", "#DDDDDD", "#000000",
    ]
    /// Violations shown per strategy (violations.csv keeps up to 1,000).
    public static let violationsShown = 5
    /// Rows of the scenario-class and coverage tables.
    public static let tableRows = 25

    /// The whole page.
    public static func html(_ data: ReportData) -> String {
        var page = Page()
        let title = "deeplink-bench report: " + (data.run?.runID ?? (data.directory as NSString).lastPathComponent)
        page.raw("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        page.raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
        page.raw("<title>\(Markup.escape(title))</title><style>\(stylesheet)</style></head><body>\n")
        page.raw("<header><h1>\(Markup.escape(title))</h1>")
        page.raw("<p class=\"path\">\(Markup.escape(data.directory))</p></header>\n")
        page.raw(navigation(data))
        if let notice = data.disturbanceNotice { page.paragraph(notice, className: "disturbed") }
        headline(data, into: &page)
        if let verdict = data.run?.verdict { self.verdict(verdict, into: &page) }
        if let run = data.run {
            outcomes(run, into: &page)
            latency(run, into: &page)
            histograms(run, into: &page)
            allocations(run, into: &page)
        }
        if !data.checks.isEmpty { comparison(data, into: &page) }
        if !data.capacity.isEmpty { capacity(data, into: &page) }
        if let manifest = data.manifest, !manifest.mergedFrom.isEmpty || manifest.shard != nil {
            shards(manifest, run: data.run, into: &page)
        }
        if let run = data.run { violations(run, manifest: data.manifest, into: &page) }
        if let coverage = data.coverage { self.coverage(coverage, into: &page) }
        page.raw("<footer>Written by <code>deeplink-bench report</code> from the files of this directory only. ")
        page.raw("Hover a bar or line for its numbers.</footer>\n</body></html>\n")
        return page.text
    }

    /// The sections present, as links.
    static func navigation(_ data: ReportData) -> String {
        var links = [("headline", "Headline")]
        if let run = data.run {
            if run.verdict != nil { links.append(("verdict", "Verdict")) }
            links += [("outcomes", "Outcomes"), ("latency", "Latency spectrum")]
            if !run.histograms.isEmpty { links.append(("histograms", "Histograms")) }
            links.append(("allocations", "Allocations"))
        }
        if !data.checks.isEmpty { links.append(("comparison", "Baseline comparison")) }
        if !data.capacity.isEmpty { links.append(("capacity", "Capacity")) }
        if let manifest = data.manifest, !manifest.mergedFrom.isEmpty || manifest.shard != nil {
            links.append(("shards", "Shards"))
        }
        if data.run != nil { links.append(("violations", "First violations")) }
        if data.coverage != nil { links.append(("coverage", "Coverage")) }
        return "<nav>" + links.map { "<a href=\"#\($0.0)\">\($0.1)</a>" }.joined(separator: " · ") + "</nav>\n"
    }

    /// A figure: title, reading guide, chart.
    static func figure(id: String, title: String, guide: String, svg: String, wide: Bool = false) -> String {
        "<figure id=\"chart-\(Markup.identifier(id))\" class=\"chart\(wide ? " wide" : "")\"><h3>\(Markup.escape(title))</h3>"
            + "<p class=\"guide\">\(Markup.escape(guide))</p>\(svg)</figure>\n"
    }

    static func colour(ofStrategyAt index: Int) -> String { strategyColours[index % strategyColours.count] }

    static let stylesheet = """
        :root{color-scheme:light}
        body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:#1a1a1a;\
        background:#fff;max-width:1120px;margin:0 auto;padding:12px 24px 40px}
        h1{font-size:1.6em;margin:.4em 0 .1em}h2{font-size:1.3em;margin:1.6em 0 .4em;padding-top:.6em;\
        border-top:2px solid #ccc}h3{font-size:1.05em;margin:.8em 0 .1em}
        .path{color:#555;margin:0;font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:.9em;\
        word-break:break-all}
        nav{margin:.6em 0;padding:.5em .8em;background:#f3f3f3;border-radius:4px}
        nav a{color:#0050a0}
        .guide{color:#444;margin:.1em 0 .4em;font-size:.93em}
        .charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(520px,1fr));gap:0 24px}
        .wide{grid-column:1/-1}figure{margin:.6em 0 1.4em}svg{max-width:100%;height:auto;display:block}
        table{border-collapse:collapse;margin:.4em 0 1em;font-size:.93em}
        th,td{border:1px solid #ccc;padding:.25em .6em;text-align:left;vertical-align:top}
        th{background:#f3f3f3}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
        .alarm{color:#A63A00;font-weight:700}.ok{color:#00603f}
        .disturbed{background:#fdf0d5;border-left:4px solid #E69F00;padding:.5em .8em;font-weight:600}
        .tiles{display:flex;flex-wrap:wrap;gap:.6em;margin:.6em 0}
        .tile{border:1px solid #ccc;border-radius:4px;padding:.4em .8em;min-width:8em}
        .tile b{display:block;font-size:1.25em}
        .verdict{display:inline-block;padding:0 .5em;border-radius:3px;font-weight:700;font-size:.9em}
        .verdict-pass{background:#d9efe6;color:#00603f}.verdict-fail{background:#f8dccb;color:#8a2c00}
        .verdict-inconclusive{background:#e8e8e8;color:#333}
        pre{background:#f6f6f6;padding:.5em .7em;overflow-x:auto;font-size:.88em;white-space:pre-wrap;\
        word-break:break-all}
        code{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:.92em}
        .legend{display:flex;flex-wrap:wrap;gap:.3em 1.1em;font-size:.9em;margin:.2em 0 .6em}
        .swatch{display:inline-block;width:14px;height:14px;border:1px solid #333;vertical-align:-2px;\
        margin-right:.3em}
        .hatched{background:repeating-linear-gradient(45deg,#000 0 2px,#D55E00 2px 6px)}
        svg .tick{font-size:12px;fill:#333}svg .axis-label{font-size:13px;fill:#222}
        svg .row-label{font-size:13px;fill:#1a1a1a}svg .series-label{font-size:12.5px;font-weight:700}
        svg .note{font-size:12.5px;fill:#333}svg .note.alarm{fill:#A63A00;font-weight:700}
        svg .grid{stroke:#e2e2e2;stroke-width:1}svg .axis{stroke:#555;stroke-width:1}
        svg .reference{stroke:#000;stroke-width:1.5;stroke-dasharray:2 3}
        svg .reference-label{font-size:12px;fill:#000}svg .series{stroke-width:2.2}
        svg .empty{font-size:14px;fill:#777}
        .violation{border-left:4px solid #D55E00;padding-left:.8em;margin:.8em 0}
        footer{margin-top:2em;color:#555;font-size:.88em}
        @media print{nav{display:none}body{max-width:none}}
        """
}
