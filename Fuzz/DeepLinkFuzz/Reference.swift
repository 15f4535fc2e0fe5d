/// Straightforward reimplementations of the grammars under test, written for clarity rather than
/// speed, so that the fuzzers can compare the optimised code against them.
enum Reference {
    /// One WHATWG form field: the raw name and value and whether a `=` separated them.
    struct Field: Equatable {
        var name: [UInt8]
        var value: [UInt8]
        var hasSeparator: Bool
    }

    /// WHATWG `application/x-www-form-urlencoded` splitting: on `&`, empty pieces skipped, each
    /// piece split at its first `=`.
    static func fields(_ bytes: [UInt8]) -> [Field] {
        bytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true).map { piece in
            guard let equals = piece.firstIndex(of: UInt8(ascii: "=")) else {
                return Field(name: Array(piece), value: [], hasSeparator: false)
            }
            return Field(
                name: Array(piece[..<equals]),
                value: Array(piece[(equals + 1)...]),
                hasSeparator: true
            )
        }
    }

    /// WHATWG percent-decoding of a form name or value: `+` is a space, `%XX` with two hex digits is
    /// that byte, any other `%` stays.
    static func formDecoded(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "+") {
                output.append(UInt8(ascii: " "))
                index += 1
            } else if byte == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = hexDigit(bytes[index + 1]), let low = hexDigit(bytes[index + 2])
            {
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(byte)
                index += 1
            }
        }
        return output
    }

    /// The parser's double-encoding rule: no raw `=` or `&`, but `%3D`, `%3d` or `%26` somewhere.
    static func isDoubleEncoded(_ bytes: [UInt8]) -> Bool {
        if bytes.contains(UInt8(ascii: "=")) || bytes.contains(UInt8(ascii: "&")) { return false }
        let text = bytes.map { $0 < 0x80 ? Character(Unicode.Scalar($0)) : "\u{FFFD}" }
        let string = String(text)
        return string.contains("%3D") || string.contains("%3d") || string.contains("%26")
    }

    static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Whether `bytes` is strict UTF-8 (the standard library's validation).
    static func isUTF8(_ bytes: [UInt8]) -> Bool {
        String(validating: bytes, as: UTF8.self) != nil
    }

    /// Whether `scalar` is a C0 control, DEL or a C1 control.
    static func isControl(_ value: UInt32) -> Bool {
        value < 0x20 || value == 0x7F || (0x80...0x9F).contains(value)
    }

    /// Whether a path (no query) has a `.` or `..` segment: segments split at `/`, `%2F` or `%2f`,
    /// `;` parameters cut off, `%2E`/`%2e` read as `.`.
    static func hasDotSegment(_ path: [UInt8]) -> Bool {
        var segments: [[UInt8]] = [[]]
        var index = 0
        while index < path.count {
            if path[index] == UInt8(ascii: "/") {
                segments.append([])
                index += 1
            } else if path[index] == UInt8(ascii: "%"), index + 2 < path.count, path[index + 1] == UInt8(ascii: "2"),
                path[index + 2] == UInt8(ascii: "F") || path[index + 2] == UInt8(ascii: "f")
            {
                segments.append([])
                index += 3
            } else {
                segments[segments.count - 1].append(path[index])
                index += 1
            }
        }
        for segment in segments {
            let beforeParameters = Array(segment.prefix { $0 != UInt8(ascii: ";") })
            var dots: [UInt8] = []
            var position = 0
            var onlyDots = true
            while position < beforeParameters.count {
                let byte = beforeParameters[position]
                if byte == UInt8(ascii: ".") {
                    dots.append(byte)
                    position += 1
                } else if byte == UInt8(ascii: "%"), position + 2 < beforeParameters.count,
                    beforeParameters[position + 1] == UInt8(ascii: "2"),
                    beforeParameters[position + 2] == UInt8(ascii: "e")
                        || beforeParameters[position + 2] == UInt8(ascii: "E")
                {
                    dots.append(UInt8(ascii: "."))
                    position += 3
                } else {
                    onlyDots = false
                    break
                }
            }
            if onlyDots, dots.count == 1 || dots.count == 2 { return true }
        }
        return false
    }

    /// `%XX` escapes decoded, everything else (including `+`) kept.
    static func percentUnescaped(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = hexDigit(bytes[index + 1]), let low = hexDigit(bytes[index + 2])
            {
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return output
    }

    // MARK: - The canonical form and the prefix rule, restated plainly

    /// RFC 3986 `unreserved`.
    static func isUnreserved(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "~")
    }

    /// Percent-encoding normalisation (RFC 3986 6.2.2.1–2), left to right: an escape of an
    /// unreserved byte becomes that byte, any other escape gets uppercase hex, everything else is
    /// kept (a `%` without two hex digits too).
    static func canonical(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = hexDigit(bytes[index + 1]), let low = hexDigit(bytes[index + 2])
            {
                let value = high << 4 | low
                if isUnreserved(value) {
                    output.append(value)
                } else {
                    output += Array(("%" + String(value, radix: 16, uppercase: true).leftPadded(to: 2)).utf8)
                }
                index += 3
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return output
    }

    /// Whether `scalar` is refused as invisible: the standard library's Default_Ignorable_Code_Point
    /// property, plus U+FFF9…U+FFFB.
    static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isDefaultIgnorableCodePoint || (0xFFF9...0xFFFB).contains(scalar.value)
    }

    /// The prefix rule, as a string comparison: both sides canonical and ASCII-lowercased, trailing
    /// slashes dropped from the prefix (`/` stays), then the path starts with the prefix and ends
    /// there or continues with `/` or `;`. `/` matches every path starting with `/`.
    static func pathIsUnder(_ path: [UInt8], prefix: [UInt8]) -> Bool {
        func folded(_ bytes: [UInt8]) -> [UInt8] {
            canonical(bytes).map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
        }
        var rule = folded(prefix)
        while rule.count > 1, rule.last == UInt8(ascii: "/") { rule.removeLast() }
        let path = folded(path)
        guard rule.first == UInt8(ascii: "/"), path.starts(with: rule) else { return false }
        if rule == [UInt8(ascii: "/")] || path.count == rule.count { return true }
        return path[rule.count] == UInt8(ascii: "/") || path[rule.count] == UInt8(ascii: ";")
    }
}

extension String {
    /// The string with zeros in front, to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
