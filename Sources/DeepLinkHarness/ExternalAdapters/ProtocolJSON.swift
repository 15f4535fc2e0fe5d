/// The little JSON the journey protocol needs (`Docs/Protocol.md`): one object per line whose
/// members are strings, integers, booleans, `null` or arrays of strings. Parsing is strict RFC 8259
/// for that subset (nested objects and fractions are refused by name), byte-level and without
/// Foundation, because every journey crosses it several times.
///
/// Thread safety: a value type; `Sendable`.
package struct ProtocolJSON: Sendable {
    /// A member's value.
    package enum Value: Sendable, Equatable {
        case string([UInt8])
        case integer(Int64)
        case bool(Bool)
        case null
        case strings([[UInt8]])
    }

    /// The members in order of appearance (keys as UTF-8 bytes).
    package var members: [(key: [UInt8], value: Value)] = []

    /// The value of `key`, if present (the first occurrence).
    package subscript(_ key: StaticString) -> Value? {
        let bytes = UnsafeRawBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
        for member in members where member.key.elementsEqual(bytes) { return member.value }
        return nil
    }

    /// `key`'s string value as bytes, or nil when absent or not a string.
    package func bytes(_ key: StaticString) -> [UInt8]? {
        if case .string(let bytes) = self[key] { return bytes }
        return nil
    }

    /// `key`'s string value, or nil when absent or not a string.
    package func string(_ key: StaticString) -> String? { bytes(key).map { String(decoding: $0, as: UTF8.self) } }

    /// `key`'s integer value, or nil when absent or not an integer.
    package func integer(_ key: StaticString) -> Int64? {
        if case .integer(let value) = self[key] { return value }
        return nil
    }

    /// Why a line is not protocol JSON, with the byte offset where parsing stopped.
    package struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        package var offset: Int
        package var problem: String
        package var description: String { "invalid JSON at byte \(offset): \(problem)" }
    }

    /// Parses one line (without its newline).
    package static func parse(_ line: UnsafeRawBufferPointer) throws(ParseError) -> ProtocolJSON {
        var scanner = Scanner(bytes: line)
        return try scanner.object()
    }

    /// Parses one line (without its newline).
    package static func parse(_ line: [UInt8]) throws(ParseError) -> ProtocolJSON {
        let result: Result<ProtocolJSON, ParseError> = line.withUnsafeBytes { buffer in
            do throws(ParseError) {
                return .success(try parse(buffer))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Appends `bytes` as a JSON string literal (quotes, escapes for `"`, `\` and control bytes;
    /// other bytes, UTF-8 or not, as they are).
    package static func appendString(_ bytes: some Sequence<UInt8>, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                output.append(UInt8(ascii: "\\"))
                output.append(byte)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), 0x30, 0x30])
                output.append(hex[Int(byte >> 4)])
                output.append(hex[Int(byte & 15)])
            default:
                output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    /// Appends the decimal digits of `value`.
    package static func appendInteger(_ value: UInt64, to output: inout [UInt8]) {
        var digits = InlineArray<20, UInt8>(repeating: 0)
        var count = 0
        var rest = value
        repeat {
            digits[count] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
            count += 1
        } while rest > 0
        while count > 0 {
            count -= 1
            output.append(digits[count])
        }
    }
}

/// A cursor over one line.
private struct Scanner {
    let bytes: UnsafeRawBufferPointer
    var offset = 0

    init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    func fail(_ problem: String) -> ProtocolJSON.ParseError { .init(offset: offset, problem: problem) }

    mutating func skipSpace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x09, 0x0A, 0x0D: offset += 1
            default: return
            }
        }
    }

    mutating func expect(_ byte: UInt8) throws(ProtocolJSON.ParseError) {
        skipSpace()
        guard offset < bytes.count, bytes[offset] == byte else {
            throw fail("expected '\(Character(Unicode.Scalar(byte)))'")
        }
        offset += 1
    }

    /// After an object's member or an array's item: consumes a `,` (returns true: another
    /// follows) or the closing byte `close` (returns false).
    mutating func another(before close: UInt8, in container: String) throws(ProtocolJSON.ParseError) -> Bool {
        skipSpace()
        guard offset < bytes.count else { throw fail("unterminated \(container)") }
        if bytes[offset] == UInt8(ascii: ",") {
            offset += 1
            return true
        }
        try expect(close)
        return false
    }

    mutating func object() throws(ProtocolJSON.ParseError) -> ProtocolJSON {
        var result = ProtocolJSON()
        try expect(UInt8(ascii: "{"))
        skipSpace()
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") {
            offset += 1
        } else {
            while true {
                skipSpace()
                let key = try string()
                try expect(UInt8(ascii: ":"))
                let value = try value()
                result.members.append((key, value))
                guard try another(before: UInt8(ascii: "}"), in: "object") else { break }
            }
        }
        skipSpace()
        guard offset == bytes.count else { throw fail("text after the object") }
        return result
    }

    mutating func value() throws(ProtocolJSON.ParseError) -> ProtocolJSON.Value {
        skipSpace()
        guard offset < bytes.count else { throw fail("missing value") }
        switch bytes[offset] {
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "["):
            offset += 1
            var items: [[UInt8]] = []
            skipSpace()
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") {
                offset += 1
                return .strings(items)
            }
            while true {
                skipSpace()
                guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else {
                    throw fail("arrays hold only strings in this protocol")
                }
                items.append(try string())
                guard try another(before: UInt8(ascii: "]"), in: "array") else { return .strings(items) }
            }
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .integer(try integer())
        case UInt8(ascii: "{"): throw fail("nested objects are not part of this protocol")
        default: throw fail("unexpected byte 0x\(String(bytes[offset], radix: 16))")
        }
    }

    mutating func literal(
        _ word: StaticString,
        _ value: ProtocolJSON.Value
    ) throws(ProtocolJSON.ParseError)
        -> ProtocolJSON.Value
    {
        let count = word.utf8CodeUnitCount
        guard offset + count <= bytes.count else { throw fail("truncated literal") }
        for index in 0..<count where bytes[offset + index] != word.utf8Start[index] {
            throw fail("invalid literal")
        }
        offset += count
        return value
    }

    mutating func integer() throws(ProtocolJSON.ParseError) -> Int64 {
        let negative = bytes[offset] == UInt8(ascii: "-")
        if negative { offset += 1 }
        let start = offset
        var magnitude: UInt64 = 0
        while offset < bytes.count, bytes[offset] >= UInt8(ascii: "0"), bytes[offset] <= UInt8(ascii: "9") {
            let (times, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(UInt64(bytes[offset] - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { throw fail("integer out of range") }
            magnitude = sum
            offset += 1
        }
        guard offset > start else { throw fail("missing digits") }
        guard bytes[start] != UInt8(ascii: "0") || offset == start + 1 else { throw fail("leading zero") }
        if offset < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[offset]) {
            throw fail("only integers are part of this protocol")
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { throw fail("integer out of range") }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { throw fail("integer out of range") }
        return Int64(magnitude)
    }

    /// A string literal, unescaped into UTF-8 bytes (escaped surrogate pairs combined; a lone
    /// surrogate becomes U+FFFD). Raw control bytes are refused, as RFC 8259 requires.
    mutating func string() throws(ProtocolJSON.ParseError) -> [UInt8] {
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { throw fail("expected a string") }
        offset += 1
        var result: [UInt8] = []
        while offset < bytes.count {
            let byte = bytes[offset]
            offset += 1
            switch byte {
            case UInt8(ascii: "\""):
                return result
            case UInt8(ascii: "\\"):
                guard offset < bytes.count else { throw fail("unterminated escape") }
                let escape = bytes[offset]
                offset += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): result.append(escape)
                case UInt8(ascii: "b"): result.append(0x08)
                case UInt8(ascii: "f"): result.append(0x0C)
                case UInt8(ascii: "n"): result.append(0x0A)
                case UInt8(ascii: "r"): result.append(0x0D)
                case UInt8(ascii: "t"): result.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar), offset + 1 < bytes.count,
                        bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u")
                    {
                        let saved = offset
                        offset += 2
                        let low = try hex4()
                        if (0xDC00..<0xE000).contains(low) {
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            offset = saved
                        }
                    }
                    let character = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                    result.append(contentsOf: String(character).utf8)
                default: throw fail("invalid escape")
                }
            case 0..<0x20:
                throw fail("raw control byte in a string")
            default:
                result.append(byte)
            }
        }
        throw fail("unterminated string")
    }

    mutating func hex4() throws(ProtocolJSON.ParseError) -> UInt32 {
        guard offset + 4 <= bytes.count else { throw fail("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw fail("invalid \\u escape")
            }
            value = value << 4 | UInt32(digit)
            offset += 1
        }
        return value
    }
}
