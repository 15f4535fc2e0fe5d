/// A named error reading or writing CSV. Line numbers count physical lines from 1 (the header).
///
/// Thread safety: an immutable value.
package enum CSVError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The input has no header row.
    case empty
    /// A quoted field is still open at the end of the input.
    case unterminatedQuote(line: Int)
    /// A `"` inside an unquoted field, or a character other than `,`/end of record after a closing
    /// quote.
    case unexpectedQuote(line: Int)
    /// A CR not followed by LF outside a quoted field (RFC 4180 allows CR only in CRLF or quoted).
    case bareCarriageReturn(line: Int)
    /// A record whose field count differs from the header's.
    case raggedRow(line: Int, expected: Int, found: Int)
    /// A required column is absent from the header.
    case missingColumn(String)
    /// The header names a column twice.
    case duplicateColumn(String)
    /// The bytes are not valid UTF-8.
    case invalidUTF8
    /// The file starts with a UTF-8 byte-order mark (EF BB BF), which report files never have.
    case byteOrderMark
    /// A cell that should hold a finite number does not.
    case invalidNumber(column: String, line: Int, value: String)
    /// A cell that should hold a count (a non-negative integer below 2^64) does not.
    case invalidCount(column: String, line: Int, value: String)

    package var description: String {
        switch self {
        case .empty: "empty CSV (no header row)"
        case .unterminatedQuote(let line): "unterminated quoted field starting on line \(line)"
        case .unexpectedQuote(let line): "unexpected '\"' on line \(line)"
        case .bareCarriageReturn(let line): "carriage return without line feed outside quotes on line \(line)"
        case .raggedRow(let line, let expected, let found):
            "record on line \(line) has \(found) fields, the header has \(expected)"
        case .missingColumn(let name): "missing column '\(name)'"
        case .duplicateColumn(let name): "column '\(name)' appears twice in the header"
        case .invalidUTF8: "not valid UTF-8"
        case .byteOrderMark:
            "starts with a UTF-8 byte-order mark (EF BB BF), which report files never have: the file was "
                + "re-saved by another program; regenerate it, or save it again as UTF-8 without a BOM"
        case .invalidNumber(let column, let line, let value):
            "column '\(column)' on line \(line): '\(value)' is not a finite number"
        case .invalidCount(let column, let line, let value):
            "column '\(column)' on line \(line): '\(value)' is not a count (a non-negative integer below 2^64)"
        }
    }
}
