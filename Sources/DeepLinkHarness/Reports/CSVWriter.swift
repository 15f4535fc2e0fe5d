/// Writes RFC 4180 CSV: a header row, then rows with exactly one field per column, in the order
/// the columns were declared (stable). Records end with CRLF (RFC 4180; ``CSVReader`` also
/// accepts LF). A field is quoted when it contains a comma, a double quote, CR or LF; quotes inside
/// it are doubled.
///
/// Formula-injection neutralisation: in a ``ColumnKind/text`` column, a cell starting with `=`,
/// `+`, `-`, `@`, a tab or CR is written with a `'` in front, so that spreadsheets show it as text
/// instead of evaluating it; a cell starting with `'` gets one more, so the escape is reversible
/// (``unneutralised(_:)``). ``ColumnKind/numeric`` columns are left alone when the cell is a
/// plain number (`-12`, `3.5`); anything else in them is neutralised like text.
///
/// Thread safety: a value type; use each writer from one thread.
package struct CSVWriter: Sendable {
    /// Whether a column holds numbers (never neutralised when they parse as numbers) or text.
    package enum ColumnKind: Sendable {
        case text
        case numeric
    }

    /// One column: its header name and kind.
    package struct Column: Sendable, Equatable {
        package var name: String
        package var kind: ColumnKind

        package init(_ name: String, _ kind: ColumnKind) {
            self.name = name
            self.kind = kind
        }
    }

    /// The record terminator.
    package enum LineEnding: String, Sendable {
        case crlf = "\r\n"
        case lf = "\n"
    }

    package let columns: [Column]
    package let lineEnding: LineEnding
    /// The document so far: the header row and every appended row.
    package private(set) var text: String

    /// A writer whose document starts with the header row.
    package init(columns: [Column], lineEnding: LineEnding = .crlf) {
        self.columns = columns
        self.lineEnding = lineEnding
        self.text = ""
        appendRecord(columns.map { Self.quoted($0.name) })
    }

    /// Appends one row. Throws ``CSVError/raggedRow(line:expected:found:)`` when the row does not
    /// have one field per column (nothing is appended then).
    package mutating func append(_ row: [String]) throws(CSVError) {
        guard row.count == columns.count else {
            throw .raggedRow(line: rowCount + 2, expected: columns.count, found: row.count)
        }
        var fields: [String] = []
        fields.reserveCapacity(row.count)
        for (field, column) in zip(row, columns) {
            let safe = column.kind == .numeric && Self.isPlainNumber(field) ? field : Self.neutralised(field)
            fields.append(Self.quoted(safe))
        }
        appendRecord(fields)
        rowCount += 1
    }

    /// Rows appended so far (not counting the header).
    package private(set) var rowCount = 0

    private mutating func appendRecord(_ fields: [String]) {
        text += fields.joined(separator: ",")
        text += lineEnding.rawValue
    }

    /// `field` with a `'` in front when it starts with a character that spreadsheets treat as the
    /// start of a formula (`=`, `+`, `-`, `@`, tab, CR), or with `'` itself (so that
    /// ``unneutralised(_:)`` can undo it exactly); unchanged otherwise.
    package static func neutralised(_ field: String) -> String {
        guard let first = field.unicodeScalars.first else { return field }
        switch first {
        case "=", "+", "-", "@", "\t", "\r", "'": return "'" + field
        default: return field
        }
    }

    /// Undoes ``neutralised(_:)``: drops a leading `'` when a formula character or `'` follows it.
    package static func unneutralised(_ field: String) -> String {
        var scalars = field.unicodeScalars[...]
        guard scalars.first == "'" else { return field }
        scalars = scalars.dropFirst()
        switch scalars.first {
        case "=", "+", "-", "@", "\t", "\r", "'": return String(String.UnicodeScalarView(scalars))
        default: return field
        }
    }

    /// `field` as it appears in the file: quoted (with quotes doubled) only when it contains a
    /// comma, a double quote, CR or LF.
    package static func quoted(_ field: String) -> String {
        let needsQuotes = field.utf8.contains { byte in
            byte == UInt8(ascii: ",") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\r")
                || byte == UInt8(ascii: "\n")
        }
        guard needsQuotes else { return field }
        var result = "\""
        for character in field.unicodeScalars {
            if character == "\"" { result.unicodeScalars.append("\"") }
            result.unicodeScalars.append(character)
        }
        result += "\""
        return result
    }

    /// Whether `field` is a plain decimal number: optional `-`, digits, optional `.` and digits.
    package static func isPlainNumber(_ field: String) -> Bool {
        var bytes = Substring(field).utf8[...]
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        guard let first = bytes.first, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else { return false }
        var seenDot = false
        var lastWasDigit = false
        for byte in bytes {
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                lastWasDigit = true
            } else if byte == UInt8(ascii: "."), !seenDot {
                seenDot = true
                lastWasDigit = false
            } else {
                return false
            }
        }
        return lastWasDigit
    }
}
