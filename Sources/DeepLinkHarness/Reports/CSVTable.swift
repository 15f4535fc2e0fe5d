/// A strict RFC 4180 CSV parser: the first record is the header; every record must have as many
/// fields as the header; quoted fields may hold commas, doubled quotes, CR and LF. Records may end
/// with CRLF or LF, and the last one may have no terminator. Anything else is a named
/// ``CSVError`` (never a crash): a byte-order mark, an unterminated quote, a stray quote, a ragged
/// row, a missing or duplicate column.
///
/// Thread safety: a value type holding parsed text; immutable after parsing.
package struct CSVTable: Sendable, Equatable {
    /// The header row's column names, in file order.
    package let header: [String]
    /// The records after the header, each with `header.count` fields.
    package let rows: [[String]]
    /// For each row, the physical line it starts on (for error messages).
    package let rowLines: [Int]

    /// Parses `text`.
    ///
    /// - Complexity: O(n) in the length of `text`.
    package init(parsing text: String) throws(CSVError) {
        var records = try CSVReader.records(in: text)
        guard !records.isEmpty else { throw .empty }
        let headerRecord = records.removeFirst()
        var seen = Set<String>()
        for name in headerRecord.fields where !seen.insert(name).inserted { throw .duplicateColumn(name) }
        for record in records where record.fields.count != headerRecord.fields.count {
            throw .raggedRow(line: record.line, expected: headerRecord.fields.count, found: record.fields.count)
        }
        header = headerRecord.fields
        rows = records.map(\.fields)
        rowLines = records.map(\.line)
    }

    /// Parses UTF-8 `bytes`.
    package init(parsing bytes: [UInt8]) throws(CSVError) {
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .invalidUTF8 }
        try self.init(parsing: text)
    }

    /// The position of the column named `name`, or ``CSVError/missingColumn(_:)``.
    package func columnIndex(_ name: String) throws(CSVError) -> Int {
        guard let index = header.firstIndex(of: name) else { throw .missingColumn(name) }
        return index
    }

    /// Checks that every column in `names` is present; throws for the first one missing.
    package func require(_ names: [String]) throws(CSVError) {
        for name in names { _ = try columnIndex(name) }
    }

    /// The rows as dictionaries keyed by column name.
    package var records: [[String: String]] {
        rows.map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
    }

    /// The count (an unsigned integer below 2^64) in column `name` of row `row`, or
    /// ``CSVError/invalidCount(column:line:value:)``: a sign, a fraction or a value of 2^64 or more
    /// are refused, never clamped.
    package func unsigned(_ name: String, row: Int) throws(CSVError) -> UInt64 {
        let value = rows[row][try columnIndex(name)]
        guard let number = UInt64(value) else {
            throw .invalidCount(column: name, line: rowLines[row], value: value)
        }
        return number
    }

    /// The finite number in column `name` of row `row`, or a named error (a number too large for
    /// a `Double`, such as one of 400 digits, is refused rather than read as infinity).
    package func double(_ name: String, row: Int) throws(CSVError) -> Double {
        let value = rows[row][try columnIndex(name)]
        guard CSVWriter.isPlainNumber(value), let number = Double(value), number.isFinite else {
            throw .invalidNumber(column: name, line: rowLines[row], value: value)
        }
        return number
    }

    /// The text in column `name` of row `row`.
    package func string(_ name: String, row: Int) throws(CSVError) -> String {
        rows[row][try columnIndex(name)]
    }
}
