/// Percent-encoding for the links the builder writes (decoding is the core's `ReferrerParser`).
///
/// Thread safety: stateless.
enum FormEncoding {
    /// `application/x-www-form-urlencoded` (WHATWG): ASCII letters, digits and `*-._` stay, a space
    /// becomes `+`, every other byte `%XX` (uppercase hex). What the parser decodes exactly once.
    static func encode(_ text: String) -> String {
        percentEncode(text, spaceAsPlus: true) { byte in
            isAlphanumeric(byte) || byte == UInt8(ascii: "*") || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
        }
    }

    /// A URL query value (RFC 3986): unreserved bytes (letters, digits, `-._~`) stay, every other
    /// byte becomes `%XX`, so that `=`, `&`, `%` and `+` inside it survive one decoding.
    static func encodeQueryValue(_ text: String) -> String {
        percentEncode(text, spaceAsPlus: false) { byte in
            isAlphanumeric(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
        }
    }

    /// `text` with every byte `keeps` refuses written `%XX` (a space as `+` when `spaceAsPlus`).
    private static func percentEncode(_ text: String, spaceAsPlus: Bool, keeps: (UInt8) -> Bool) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if keeps(byte) {
                output.append(byte)
            } else if spaceAsPlus, byte == UInt8(ascii: " ") {
                output.append(UInt8(ascii: "+"))
            } else {
                appendEscape(byte, to: &output)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Whether `byte` may appear raw in a URL's path and query (RFC 3986 unreserved and reserved
    /// characters and `%`, without `#`, `[` and `]`).
    static func isURLByte(_ byte: UInt8) -> Bool {
        if isAlphanumeric(byte) { return true }
        switch byte {
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: ":"),
            UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "@"), UInt8(ascii: "!"), UInt8(ascii: "$"),
            UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"),
            UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: "%"):
            return true
        default:
            return false
        }
    }

    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        AndroidPackageName.isLetter(byte) || AndroidPackageName.isDigit(byte)
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func appendEscape(_ byte: UInt8, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "%"))
        output.append(hexDigits[Int(byte >> 4)])
        output.append(hexDigits[Int(byte & 15)])
    }
}
