import Foundation

/// `deeplink-bench report DIR [--baseline DIR] [--out FILE]`: writes report.html (and summary.md
/// beside it) for an output directory of `run`, `merge`, `gate` or `capacity`. Those commands call
/// ``attach(to:io:)`` themselves unless given `--no-report`.
///
/// Thread safety: a value type run by one thread.
package struct ReportCommand: BenchCommand {
    package static let configuration = CommandConfiguration(
        name: "report",
        abstract: "Write report.html (charts) and summary.md (Markdown) for a report directory.",
        usage: "report DIR [--baseline DIR[,DIR...]] [--out FILE]",
        discussion: """
            DIR is an output directory of run, merge, gate or capacity; only its files are read (and the \
            baseline's, with --baseline, to compare against). Writes DIR/report.html and DIR/summary.md \
            (with --out FILE: FILE and summary.md beside it). Exit 0, or 2 on a missing or unreadable \
            directory or file (named).
            """,
        options: [
            Option.baseline.described("Baseline report directories to compare with."),
            Option.out.described("Where to write the page (default DIR/report.html).", value: "FILE"),
        ]
    )

    /// The file name of the page.
    package static let htmlFile = "report.html"
    /// The file name of the Markdown summary.
    package static let markdownFile = "summary.md"

    package var directory: String
    package var baseline: String?
    package var output: String?

    package init(arguments: ParsedArguments) throws(CLIError) {
        guard let directory = arguments.positionals.first else { throw .missingArgument("DIR") }
        if arguments.positionals.count > 1 { throw .unexpectedArgument(arguments.positionals[1]) }
        self.directory = directory
        self.baseline = arguments[.baseline]
        self.output = arguments[.out]
    }

    package mutating func run(io: CommandIO) throws -> Int32 {
        do {
            let written = try Self.write(directory: directory, baseline: baseline, htmlPath: output)
            io.out("report: \(Self.absolute(written.html))\nsummary: \(Self.absolute(written.markdown))\n")
            return 0
        } catch {
            io.err("error: report: \(error)\n")
            return 2
        }
    }

    /// Reads `directory`, writes the page to `htmlPath` (default `directory/report.html`) and
    /// summary.md beside it; returns both paths.
    @discardableResult
    package static func write(
        directory: String,
        baseline: String? = nil,
        htmlPath: String? = nil
    ) throws(ReportError) -> (html: String, markdown: String) {
        let data = try ReportData.load(directory: directory, baseline: baseline)
        let html = htmlPath ?? ReportReader.path(htmlFile, in: directory)
        let markdown = ReportReader.path(markdownFile, in: ReportReader.parentDirectory(of: html))
        try writeFile(ReportPage.html(data), to: html)
        try writeFile(MarkdownSummary.markdown(data), to: markdown)
        return (html, markdown)
    }

    /// For run, merge, gate and capacity: writes the report of `directory` and returns the line
    /// naming it, for the caller to print; a failure is a warning on standard error (the
    /// command's own files are already written) and returns "".
    package static func attach(to directory: String, io: CommandIO) -> String {
        do {
            let written = try write(directory: directory)
            return "report.html: \(absolute(written.html))\n"
        } catch {
            io.err("warning: report.html not written: \(error)\n")
            return ""
        }
    }

    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : ReportReader.path(path, in: FileManager.default.currentDirectoryPath)
    }

    /// Writes `text` whole (atomically: a reader never sees half a page).
    static func writeFile(_ text: String, to path: String) throws(ReportError) {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw .cannotWrite(path: path, reason: error.localizedDescription)
        }
    }
}
