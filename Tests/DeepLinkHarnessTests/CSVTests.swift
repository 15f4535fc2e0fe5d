import DeepLinkHarness
import Foundation
import Testing

@Suite struct CSVTests {
    static let columns: [CSVWriter.Column] = [.init("name", .text), .init("value", .numeric), .init("note", .text)]

    @Test func quotingRoundTripsAwkwardText() throws {
        let awkward = [
            "plain", "with,comma", "with \"quotes\"", "line\nbreak", "crlf\r\nbreak", "bare\rcr",
            "ünïcødé ✓ 日本", "", " spaces ", "\"", ",", "emoji 👍🏽",
        ]
        for lineEnding in [CSVWriter.LineEnding.crlf, .lf] {
            var writer = CSVWriter(columns: Self.columns, lineEnding: lineEnding)
            for (index, text) in awkward.enumerated() { try writer.append([text, String(index), text + "!"]) }
            let table = try CSVTable(parsing: writer.text)
            #expect(table.header == ["name", "value", "note"])
            #expect(table.rows.count == awkward.count)
            for (index, text) in awkward.enumerated() {
                #expect(table.rows[index] == [text, String(index), text + "!"])
            }
        }
    }

    @Test func writerUsesCRLFAndQuotesOnlyWhenNeeded() throws {
        var writer = CSVWriter(columns: Self.columns)
        try writer.append(["a", "1", "b,c"])
        #expect(writer.text == "name,value,note\r\na,1,\"b,c\"\r\n")
        #expect(writer.rowCount == 1)
    }

    @Test func formulaCellsAreNeutralisedInTextColumnsOnly() throws {
        var writer = CSVWriter(columns: Self.columns)
        let dangerous = ["=1+1", "+SUM(A1)", "-2+3", "@cmd", "\tx", "\rx", "=HYPERLINK(\"http://x\",\"y\")"]
        for text in dangerous { try writer.append([text, "-12", text]) }
        try writer.append(["safe", "-3.5", "ok"])
        try writer.append(["numeric column with text", "=1+1", "x"])
        let table = try CSVTable(parsing: writer.text)
        for (index, text) in dangerous.enumerated() {
            #expect(table.rows[index][0] == "'" + text)
            #expect(table.rows[index][2] == "'" + text)
            #expect(table.rows[index][1] == "-12", "numbers stay numbers")
        }
        #expect(table.rows[dangerous.count] == ["safe", "-3.5", "ok"])
        #expect(table.rows[dangerous.count + 1][1] == "'=1+1", "non-numbers in numeric columns are neutralised")
        for text in dangerous + ["'", "'=x", "''", "plain", "", "'plain"] {
            #expect(CSVWriter.unneutralised(CSVWriter.neutralised(text)) == text, "\(text)")
        }
        #expect(CSVWriter.neutralised("'quote") == "''quote")
    }

    @Test func plainNumbers() {
        for text in ["0", "12", "-1", "3.25", "-0.5"] { #expect(CSVWriter.isPlainNumber(text), "\(text)") }
        for text in ["", "-", "1.", ".5", "1e5", "1.2.3", "--1", "+1", "1 ", "0x1"] {
            #expect(!CSVWriter.isPlainNumber(text), "\(text)")
        }
    }

    @Test func raggedRowOnWriteIsNamed() {
        var writer = CSVWriter(columns: Self.columns)
        #expect(throws: CSVError.raggedRow(line: 2, expected: 3, found: 2)) { try writer.append(["a", "1"]) }
        #expect(writer.rowCount == 0)
    }

    /// One CSV reader, one rule: a byte-order mark at the start is refused, by every reader (the
    /// gate used to accept it where merge did not), with a named error.
    @Test func aByteOrderMarkIsRefusedByTheGateAndMergeAlike() throws {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        #expect(throws: CSVError.byteOrderMark) { try CSVTable(parsing: bom + Array("a,b\n1,2\n".utf8)) }
        #expect(throws: CSVError.byteOrderMark) { try CSVTable(parsing: "\u{FEFF}a,b\n") }
        // Elsewhere U+FEFF is text like any other.
        #expect(try CSVTable(parsing: "a,b\n\u{FEFF}x,1\n").rows == [["\u{FEFF}x", "1"]])

        let root = ReportFixtures.temporaryDirectory("bom")
        defer { ReportFixtures.remove(root) }
        try ReportWriter.write(GateTests.standardReport(), to: root + "/base")
        try ReportWriter.write(GateTests.standardReport(), to: root + "/cur")
        let summary = root + "/cur/" + ReportSchema.summaryFile
        let original = try Data(contentsOf: URL(fileURLWithPath: summary))
        try (Data(bom) + original).write(to: URL(fileURLWithPath: summary))
        // Sealed again, as a tool that re-saved the file would leave it: the BOM itself is refused.
        try ReportFixtures.reseal(root + "/cur")
        let expected = "\(summary): \(CSVError.byteOrderMark)"
        #expect(expected.contains("starts with a UTF-8 byte-order mark (EF BB BF)"))
        let gate = GateTests.gate(["--baseline", root + "/base", "--current", root + "/cur"])
        #expect(gate.status == 2)
        #expect(gate.err == "error: gate: \(expected)\n", "\(gate.err)")
        var err = ""
        let io = CommandIO(stdout: { _ in }, stderr: { err += $0 })
        #expect(DeepLinkBench.main(arguments: ["merge", "--out", root + "/m", root + "/cur"], io: io) == 2)
        #expect(err == "error: merge: \(expected)\n", "\(err)")
    }

    @Test func readerErrorsAreNamed() {
        #expect(throws: CSVError.empty) { try CSVTable(parsing: "") }
        #expect(throws: CSVError.unterminatedQuote(line: 2)) { try CSVTable(parsing: "a,b\n\"x,1\n2,3\n") }
        #expect(throws: CSVError.raggedRow(line: 3, expected: 2, found: 3)) {
            try CSVTable(parsing: "a,b\r\n1,2\r\n1,2,3\r\n")
        }
        #expect(throws: CSVError.unexpectedQuote(line: 2)) { try CSVTable(parsing: "a,b\nx\"y,1\n") }
        #expect(throws: CSVError.unexpectedQuote(line: 2)) { try CSVTable(parsing: "a,b\n\"x\"y,1\n") }
        #expect(throws: CSVError.bareCarriageReturn(line: 1)) { try CSVTable(parsing: "a,b\rc\n") }
        #expect(throws: CSVError.duplicateColumn("a")) { try CSVTable(parsing: "a,b,a\n") }
        #expect(throws: CSVError.invalidUTF8) { try CSVTable(parsing: [0x61, 0xFF, 0x0A]) }
        let table = try? CSVTable(parsing: "a,b\n1,x\n")
        #expect(throws: CSVError.missingColumn("wall_ns")) { try table?.columnIndex("wall_ns") }
        #expect(throws: CSVError.invalidCount(column: "b", line: 2, value: "x")) { try table?.unsigned("b", row: 0) }
        #expect(CSVError.missingColumn("wall_ns").description.contains("wall_ns"))
    }

    @Test func readerAcceptsMissingFinalTerminatorAndEmptyFields() throws {
        let table = try CSVTable(parsing: "a,b,c\n,,\n1,\"\",3")
        #expect(table.rows == [["", "", ""], ["1", "", "3"]])
        #expect(table.rowLines == [2, 3])
        #expect(try table.unsigned("c", row: 1) == 3)
    }
}
