import DeepLinkHarness

/// `CSVReader`/`CSVTable`/`CSVWriter`: any bytes parse or fail with a named `CSVError`; a parsed
/// table is rectangular and survives writer → reader; a ragged input is reported at its first
/// ragged record; generated tables round-trip through the writer, neutralisation included.
///
/// Input: the first byte picks a mode: raw CSV bytes, or a table generated from the rest.
enum CSVFuzzer {
    static func run(_ input: UnsafeRawBufferPointer) {
        var cursor = FuzzInput(input)
        if cursor.byte() & 1 == 0 {
            checkParse(cursor.rest())
        } else {
            checkGenerated(&cursor)
        }
    }

    static func checkParse(_ bytes: [UInt8]) {
        let table: CSVTable
        do {
            table = try CSVTable(parsing: bytes)
        } catch {
            checkRefusal(error, bytes: bytes)
            return
        }
        fuzzCheck(String(validating: bytes, as: UTF8.self) != nil, "invalid UTF-8 parsed")
        fuzzCheck(Set(table.header).count == table.header.count, "duplicate columns accepted")
        fuzzCheck(table.rows.count == table.rowLines.count, "rowLines count differs")
        fuzzCheck(table.rows.allSatisfy { $0.count == table.header.count }, "a ragged table parsed")
        fuzzCheck(zip(table.rowLines, table.rowLines.dropFirst()).allSatisfy { $0 < $1 }, "rowLines not increasing")
        fuzzCheck(table.rowLines.allSatisfy { $0 >= 2 }, "a row on the header's line")
        // Typed accessors answer or throw a named error for every cell; they never trap.
        for row in table.rows.indices {
            for name in table.header {
                _ = try? table.unsigned(name, row: row)
                _ = try? table.double(name, row: row)
                fuzzCheck((try? table.string(name, row: row)) != nil, "string(_:row:) failed for a present column")
            }
        }
        checkRoundTrip(header: table.header, rows: table.rows, kinds: nil, lineEnding: .crlf)
    }

    /// A refusal is the first problem in the input: a scanner error, an empty input, a duplicate
    /// column, or the first ragged record.
    static func checkRefusal(_ error: CSVError, bytes: [UInt8]) {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return fuzzCheck(error == .invalidUTF8, "invalid UTF-8 reported as \(error)")
        }
        let records: [CSVReader.Record]
        do {
            records = try CSVReader.records(in: text)
        } catch {
            return
        }
        guard let header = records.first else { return fuzzCheck(error == .empty, "no records reported as \(error)") }
        if Set(header.fields).count != header.fields.count {
            guard case .duplicateColumn = error else { return fuzzCheck(false, "duplicate header gave \(error)") }
            return
        }
        guard let ragged = records.dropFirst().first(where: { $0.fields.count != header.fields.count }) else {
            return fuzzCheck(false, "a well-formed table was refused with \(error)")
        }
        let expected = CSVError.raggedRow(line: ragged.line, expected: header.fields.count, found: ragged.fields.count)
        fuzzCheck(error == expected, "ragged input reported as \(error), expected \(expected)")
    }

    /// Cells built from an alphabet heavy in what CSV and neutralisation care about.
    static let alphabet: [String] = [
        ",", "\"", "\r", "\n", "\r\n", "'", "=", "+", "-", "@", "\t", " ", "a", "Z", "0", "7", ".", "é", "💥",
        "\u{0}", "\u{85}", "\u{2028}", "e̊",
    ]

    static func checkGenerated(_ cursor: inout FuzzInput) {
        let columnCount = 1 + cursor.choose(4)
        let rowCount = cursor.choose(6)
        let lineEnding: CSVWriter.LineEnding = cursor.byte() & 1 == 0 ? .crlf : .lf
        var kinds: [CSVWriter.ColumnKind] = []
        var header: [String] = []
        for _ in 0..<columnCount {
            kinds.append(cursor.byte() & 1 == 0 ? .text : .numeric)
            header.append(cell(&cursor))
        }
        var rows: [[String]] = []
        for _ in 0..<rowCount { rows.append((0..<columnCount).map { _ in cell(&cursor) }) }
        checkRoundTrip(header: header, rows: rows, kinds: kinds, lineEnding: lineEnding)
    }

    static func cell(_ cursor: inout FuzzInput) -> String {
        let length = cursor.choose(6)
        var text = ""
        for _ in 0..<length {
            let choice = cursor.byte()
            text += choice < 0xC0 ? alphabet[Int(choice) % alphabet.count] : String(Unicode.Scalar(choice & 0x7F))
        }
        return text
    }

    /// Writes the table, reads it back and undoes neutralisation: the same table must come out.
    static func checkRoundTrip(
        header: [String],
        rows: [[String]],
        kinds: [CSVWriter.ColumnKind]?,
        lineEnding: CSVWriter.LineEnding
    ) {
        let columns = header.enumerated().map { CSVWriter.Column($1, kinds?[$0] ?? .text) }
        var writer = CSVWriter(columns: columns, lineEnding: lineEnding)
        for row in rows {
            do { try writer.append(row) } catch { return fuzzCheck(false, "a rectangular row refused: \(error)") }
        }
        let before = writer.text
        let ragged = rows.first.map { $0 + ["extra"] } ?? Array(repeating: "", count: header.count + 1)
        do {
            try writer.append(ragged)
            fuzzCheck(false, "a ragged row was appended")
        } catch {
            let expected = CSVError.raggedRow(line: rows.count + 2, expected: header.count, found: ragged.count)
            fuzzCheck(error == expected, "ragged append reported \(error)")
        }
        fuzzCheck(writer.text == before, "a refused row changed the document")

        let table: CSVTable
        do {
            table = try CSVTable(parsing: Array(writer.text.utf8))
        } catch {
            if Set(header).count != header.count, case .duplicateColumn = error { return }
            return fuzzCheck(false, "the writer's output does not parse: \(error)\n\(writer.text.debugDescription)")
        }
        fuzzCheck(Set(header).count == header.count, "duplicate columns were read back")
        fuzzCheck(table.header == header, "header changed: \(header) -> \(table.header)")
        let readBack = table.rows.map { $0.map(CSVWriter.unneutralised) }
        fuzzCheck(readBack == rows, "rows changed: \(rows) -> \(readBack)")
        for (row, written) in zip(table.rows, rows) {
            for (cell, original) in zip(row, written) where !original.isEmpty {
                let first = cell.unicodeScalars.first
                let dangerous: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]
                if let first, dangerous.contains(first) {
                    fuzzCheck(CSVWriter.isPlainNumber(cell), "a formula-like cell was not neutralised: \(cell)")
                }
            }
        }
    }
}
