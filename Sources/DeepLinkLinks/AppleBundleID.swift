/// The rules for Apple identifiers, in one place for the link builder and the site configuration.
///
/// A bundle id is reverse-DNS: at least two non-empty segments separated by `.`, of ASCII letters,
/// digits and `-` (`pro.nerdy.app`, `pro.nerdy.app.Clip`). A team id (the application identifier
/// prefix) is 10 uppercase ASCII letters or digits (`ABCDE12345`).
///
/// Thread safety: stateless.
public enum AppleBundleID {
    /// The bundle-id rule, as error messages state it.
    public static let rule =
        "use two or more dot-separated segments of A-Z a-z 0-9 - (e.g. pro.nerdy.app or pro.nerdy.app.Clip)"
    /// The team-id rule, as error messages state it.
    public static let teamIDRule = "use the 10 uppercase letters or digits of your Apple team id (e.g. ABCDE12345)"

    /// Whether `id` is a valid bundle id.
    public static func isValid(_ id: String) -> Bool {
        let segments = id.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard segments.count >= 2 else { return false }
        return segments.allSatisfy { segment in
            !segment.isEmpty
                && segment.allSatisfy {
                    AndroidPackageName.isLetter($0) || AndroidPackageName.isDigit($0) || $0 == UInt8(ascii: "-")
                }
        }
    }

    /// Whether `id` is a valid team id.
    public static func isValidTeamID(_ id: String) -> Bool {
        id.utf8.count == 10
            && id.utf8.allSatisfy {
                ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) || AndroidPackageName.isDigit($0)
            }
    }
}
