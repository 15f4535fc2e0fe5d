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
        /// A record ends at LF or CRLF outside quotes; a bare CR there is not allowed by RFC 4180.
        func endRecord(atLineBreak byte: UInt8) throws(CSVError) {
            if byte == UInt8(ascii: "\r") {
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\n") else {
                    throw .bareCarriageReturn(line: line)
                }
                index += 1
            }
            endRecord()
            line += 1
            state = .fieldStart
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
                case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                    try endRecord(atLineBreak: byte)
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
                case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                    try endRecord(atLineBreak: byte)
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
