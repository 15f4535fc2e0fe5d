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

/// The record scanner behind ``CSVTable``.
///
/// Thread safety: stateless; ``records(in:)`` may run on any thread.
package enum CSVReader {
    /// One record: its fields and the physical line it starts on.
    package struct Record: Sendable, Equatable {
        package var fields: [String]
        package var line: Int
    }

    private enum State {
        /// At the start of a field (after a comma or at the start of a record).
        case fieldStart
        /// Inside an unquoted field.
        case unquoted
        /// Inside a quoted field.
        case quoted
        /// Just read a `"` inside a quoted field: a doubled quote or the closing one.
        case quoteInQuoted
    }

    /// Splits `text` into records without checking field counts. A UTF-8 byte-order mark at the
    /// start is refused (``CSVError/byteOrderMark``) rather than skipped: the harness never writes
    /// one, so a file that has one was re-saved by another program and may hold other changes, and
    /// every reader (gate, merge, report) must give the same answer for the same file.
    ///
    /// - Complexity: O(n).
    package static func records(in text: String) throws(CSVError) -> [Record] {
        guard text.unicodeScalars.first != "\u{FEFF}" else { throw .byteOrderMark }
        var records: [Record] = []
        var fields: [String] = []
        var field: [UInt8] = []
        var state = State.fieldStart
        var line = 1
        var recordLine = 1
        var quoteLine = 1
        var inRecord = false
        let bytes = Array(text.utf8)
        var index = 0

        func endField() {
            fields.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
        }
        func endRecord() {
            endField()
            records.append(Record(fields: fields, line: recordLine))
            fields.removeAll(keepingCapacity: true)
            inRecord = false
        }

        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if !inRecord {
                inRecord = true
                recordLine = line
            }
            switch state {
            case .fieldStart, .unquoted:
                switch byte {
                case UInt8(ascii: ","):
                    endField()
                    state = .fieldStart
                case UInt8(ascii: "\n"):
                    endRecord()
                    line += 1
                    state = .fieldStart
                case UInt8(ascii: "\r"):
                    // CRLF ends a record; a bare CR in an unquoted field is not allowed by RFC 4180.
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\n") else {
                        throw .bareCarriageReturn(line: line)
                    }
                    index += 1
                    endRecord()
                    line += 1
                    state = .fieldStart
                case UInt8(ascii: "\""):
                    guard state == .fieldStart else { throw .unexpectedQuote(line: line) }
                    quoteLine = line
                    state = .quoted
                default:
                    field.append(byte)
                    state = .unquoted
                }
            case .quoted:
                if byte == UInt8(ascii: "\"") {
                    state = .quoteInQuoted
                } else {
                    if byte == UInt8(ascii: "\n") { line += 1 }
                    field.append(byte)
                }
            case .quoteInQuoted:
                switch byte {
                case UInt8(ascii: "\""):
                    field.append(byte)
                    state = .quoted
                case UInt8(ascii: ","):
                    endField()
                    state = .fieldStart
                case UInt8(ascii: "\n"):
                    endRecord()
                    line += 1
                    state = .fieldStart
                case UInt8(ascii: "\r"):
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\n") else {
                        throw .bareCarriageReturn(line: line)
                    }
                    index += 1
                    endRecord()
                    line += 1
                    state = .fieldStart
                default:
                    throw .unexpectedQuote(line: line)
                }
            }
        }
        switch state {
        case .quoted: throw .unterminatedQuote(line: quoteLine)
        case .fieldStart, .unquoted, .quoteInQuoted:
            if inRecord { endRecord() }
        }
        return records
    }
}
