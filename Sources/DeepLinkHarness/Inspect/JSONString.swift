/// JSON string literals, escaped per RFC 8259: `"` and `\` are escaped, control characters
/// (U+0000–U+001F) become `\n`, `\t`, … or `\u00XX`, everything else is written as UTF-8.
///
/// Thread safety: stateless; every member may be called from any thread.
package enum JSONString {
    /// `text` as a quoted JSON string.
    package static func quoted(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count + 2)
        append(text, to: &output)
        return output
    }

    /// Appends `text` to `output` as a quoted JSON string.
    ///
    /// - Complexity: O(n) in `text`'s length.
    package static func append(_ text: String, to output: inout String) {
        output.append("\"")
        appendEscaped(text, to: &output)
        output.append("\"")
    }

    /// `text` escaped as inside a JSON string, without the quotes: for names shown in a terminal
    /// (the gate's table), where an ESC or CR/LF from a report file must not reach the terminal raw.
    package static func escaped(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        appendEscaped(text, to: &output)
        return output
    }

    /// The one escaping rule behind ``quoted(_:)``, ``append(_:to:)`` and ``escaped(_:)``.
    private static func appendEscaped(_ text: String, to output: inout String) {
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output.append("\\\"")
            case "\\": output.append("\\\\")
            case "\n": output.append("\\n")
            case "\r": output.append("\\r")
            case "\t": output.append("\\t")
            case "\u{08}": output.append("\\b")
            case "\u{0C}": output.append("\\f")
            case "\u{00}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16, uppercase: false)
                output.append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
            default: output.unicodeScalars.append(scalar)
            }
        }
    }

    /// `text` as a quoted JSON string, or `null`.
    package static func quotedOrNull(_ text: String?) -> String {
        guard let text else { return "null" }
        return quoted(text)
    }
}
