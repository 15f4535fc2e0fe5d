extension GateCommand {
    /// `--format text` (default) or `--format markdown`.
    static func markdownFormat(_ arguments: ParsedArguments) throws(CLIError) -> Bool {
        switch arguments.string("--format") ?? "text" {
        case "text": return false
        case "markdown": return true
        case let other: throw .invalidValue(option: "--format", value: other, expected: "text or markdown")
        }
    }

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
}
