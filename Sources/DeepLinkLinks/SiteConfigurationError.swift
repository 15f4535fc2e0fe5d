/// Why a site configuration was refused; ``message`` says what was found and what to do.
///
/// Thread safety: a value type; `Sendable`.
public enum SiteConfigurationError: Error, Sendable, Hashable {
    case unreadable(path: String, detail: String)
    case unknownField(path: String, field: String)
    case missingField(path: String, field: String)
    case notAStringList(path: String, field: String)
    /// Not 10 uppercase letters or digits.
    case invalidTeamID(String)
    /// An app or App Clip bundle id that breaks ``AppleBundleID``'s rule.
    case invalidBundleID(String)
    /// An Android package name that breaks ``AndroidPackageName``'s rule.
    case invalidPackageName(String)
    /// Not 32 colon-separated uppercase hex pairs.
    case invalidFingerprint(String)
    case noFingerprints
    /// Not a plain canonical path (see ``SiteConfiguration``).
    case invalidRoute(String)

    /// The error's stable name (`invalidTeamID`, …).
    public var name: String {
        switch self {
        case .unreadable: "unreadable"
        case .unknownField: "unknownField"
        case .missingField: "missingField"
        case .notAStringList: "notAStringList"
        case .invalidTeamID: "invalidTeamID"
        case .invalidBundleID: "invalidBundleID"
        case .invalidPackageName: "invalidPackageName"
        case .invalidFingerprint: "invalidFingerprint"
        case .noFingerprints: "noFingerprints"
        case .invalidRoute: "invalidRoute"
        }
    }

    /// One line: what was wrong and what to do.
    public var message: String {
        switch self {
        case .unreadable(let path, let detail): "cannot read site configuration '\(path)': \(detail)"
        case .unknownField(let path, let field):
            "site configuration '\(path)': unknown field '\(field)'; the fields are "
                + SiteConfiguration.fields.joined(separator: ", ")
        case .missingField(let path, let field): "site configuration '\(path)': '\(field)' is missing or not a string"
        case .notAStringList(let path, let field): "site configuration '\(path)': '\(field)' must be a list of strings"
        case .invalidTeamID(let id): "invalid team id '\(id)': " + AppleBundleID.teamIDRule
        case .invalidBundleID(let id): "invalid bundle id '\(id)': " + AppleBundleID.rule
        case .invalidPackageName(let name): "invalid Android package name '\(name)': " + AndroidPackageName.rule
        case .invalidFingerprint(let text):
            "invalid SHA-256 certificate fingerprint '\(text)': give 32 colon-separated uppercase hex pairs, "
                + "as keytool -list -v prints them"
        case .noFingerprints:
            "sha256CertFingerprints is empty; give the SHA-256 fingerprint of every signing certificate"
        case .invalidRoute(let route):
            "invalid route '\(route)': give a canonical path starting with / without *, ?, %, # or non-ASCII bytes"
        }
    }
}
