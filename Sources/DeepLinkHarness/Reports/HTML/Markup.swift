/// Escaping of text that goes into report.html (HTML text, attribute values and inline SVG).
///
/// Every string that comes from a run directory (strategy names, scenario classes, traces, paths,
/// manifest fields) passes through ``escape(_:)`` before it is written, so data can never become
/// markup. C0 control characters other than tab, LF and CR are not allowed in XML (the SVG parts)
/// and are replaced by U+FFFD.
///
/// Thread safety: stateless.
package enum Markup {
    /// `text` safe inside an element or a double- or single-quoted attribute value.
    package static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0xFFFE...0xFFFF).contains(scalar.value) {
                    result += "\u{FFFD}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// `text` as a fragment identifier safe in an `id` attribute: letters, digits, `-` and `_`
    /// kept, anything else `_`.
    package static func identifier(_ text: String) -> String {
        String(
            text.unicodeScalars.map { scalar -> Character in
                let ascii = scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))
                return ascii || scalar == "-" || scalar == "_" ? Character(scalar) : "_"
            }
        )
    }
}
