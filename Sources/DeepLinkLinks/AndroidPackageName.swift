/// The rule for an Android package name (`applicationId`), in one place for the link builder and
/// the site configuration: at least two segments separated by `.`, each starting with an ASCII
/// letter and made of ASCII letters, digits and `_` (`pro.nerdy.app`).
///
/// Thread safety: stateless.
public enum AndroidPackageName {
    /// The rule, as error messages state it.
    public static let rule =
        "use two or more dot-separated segments, each starting with a letter and made of A-Z a-z 0-9 _ "
        + "(e.g. pro.nerdy.app)"

    /// Whether `name` is a valid package name.
    public static func isValid(_ name: String) -> Bool {
        let segments = name.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard segments.count >= 2 else { return false }
        return segments.allSatisfy { segment in
            guard let first = segment.first, isLetter(first) else { return false }
            return segment.allSatisfy { isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "_") }
        }
    }

    static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }
    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
