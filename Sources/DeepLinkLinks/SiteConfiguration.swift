public import DeepLinkCore
import Foundation

/// The one small JSON configuration the site association files are written from (`deeplink-bench
/// links site --config FILE`), validated field by field:
///
/// ```json
/// {
///   "teamID": "ABCDE12345",
///   "bundleID": "pro.nerdy.app",
///   "clipBundleID": "pro.nerdy.app.Clip",
///   "package": "pro.nerdy.app",
///   "sha256CertFingerprints": ["14:6D:E9:…:B2 (32 colon-separated uppercase hex pairs)"],
///   "routes": ["/product", "/orders"]
/// }
/// ```
///
/// `clipBundleID` is optional (no `appclips` section without it); `routes` is optional (absent: every
/// path, as a validator without a route table accepts). Routes follow the validator's prefix rule
/// (``LinkValidator/Configuration/routes``) and must be plain paths that an association pattern can
/// state exactly: no `*`, `?`, `%`, `#` or non-ASCII byte.
///
/// Thread safety: a value type; `Sendable`.
public struct SiteConfiguration: Sendable, Hashable {
    public var teamID: String
    public var bundleID: String
    public var clipBundleID: String?
    public var package: String
    public var sha256CertFingerprints: [String]
    public var routes: [String]?

    /// The fields a configuration file may have.
    public static let fields = ["teamID", "bundleID", "clipBundleID", "package", "sha256CertFingerprints", "routes"]

    /// A validated configuration.
    ///
    /// - Throws: ``SiteConfigurationError``.
    public init(
        teamID: String,
        bundleID: String,
        clipBundleID: String? = nil,
        package: String,
        sha256CertFingerprints: [String],
        routes: [String]? = nil
    ) throws(SiteConfigurationError) {
        guard AppleBundleID.isValidTeamID(teamID) else { throw .invalidTeamID(teamID) }
        guard AppleBundleID.isValid(bundleID) else { throw .invalidBundleID(bundleID) }
        if let clipBundleID {
            guard AppleBundleID.isValid(clipBundleID) else { throw .invalidBundleID(clipBundleID) }
        }
        guard AndroidPackageName.isValid(package) else { throw .invalidPackageName(package) }
        guard !sha256CertFingerprints.isEmpty else { throw .noFingerprints }
        for fingerprint in sha256CertFingerprints where !Self.isFingerprint(fingerprint) {
            throw .invalidFingerprint(fingerprint)
        }
        if let routes {
            for route in routes where !Self.isPlainRoute(route) { throw .invalidRoute(route) }
        }
        self.teamID = teamID
        self.bundleID = bundleID
        self.clipBundleID = clipBundleID
        self.package = package
        self.sha256CertFingerprints = sha256CertFingerprints
        self.routes = routes
    }

    /// The configuration in the JSON file at `path`.
    ///
    /// - Throws: ``SiteConfigurationError``, naming the file for an unreadable one.
    public init(file path: String) throws(SiteConfigurationError) {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .unreadable(path: path, detail: error.localizedDescription)
        }
        try self.init(json: Array(data), path: path)
    }

    /// The configuration in `bytes` (`path` only names it in errors).
    public init(json bytes: [UInt8], path: String) throws(SiteConfigurationError) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
            throw .unreadable(path: path, detail: "not a JSON object")
        }
        if let unknown = object.keys.sorted().first(where: { !Self.fields.contains($0) }) {
            throw .unknownField(path: path, field: unknown)
        }
        func string(_ name: String) throws(SiteConfigurationError) -> String {
            guard let value = object[name] as? String else { throw .missingField(path: path, field: name) }
            return value
        }
        func strings(_ name: String) throws(SiteConfigurationError) -> [String]? {
            guard let value = object[name] else { return nil }
            guard let list = value as? [String] else { throw .notAStringList(path: path, field: name) }
            return list
        }
        var clip: String?
        if object["clipBundleID"] != nil { clip = try string("clipBundleID") }
        guard let fingerprints = try strings("sha256CertFingerprints") else {
            throw .missingField(path: path, field: "sha256CertFingerprints")
        }
        try self.init(
            teamID: try string("teamID"),
            bundleID: try string("bundleID"),
            clipBundleID: clip,
            package: try string("package"),
            sha256CertFingerprints: fingerprints,
            routes: try strings("routes")
        )
    }

    /// The validator configuration whose route table the files claim (hosts are the caller's).
    public func validatorConfiguration(allowedHosts: [String]) -> LinkValidator.Configuration {
        LinkValidator.Configuration(allowedHosts: allowedHosts, routes: routes)
    }

    /// 32 colon-separated pairs of uppercase hex digits (a SHA-256 certificate fingerprint as
    /// `keytool -list -v` prints it).
    public static func isFingerprint(_ text: String) -> Bool {
        let pairs = text.utf8.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        return pairs.count == 32
            && pairs.allSatisfy { pair in
                pair.count == 2
                    && pair.allSatisfy {
                        AndroidPackageName.isDigit($0) || ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "F"))
                    }
            }
    }

    /// A route the validator accepts as a prefix (a canonical path, no query) made only of bytes an
    /// association pattern reads literally.
    static func isPlainRoute(_ route: String) -> Bool {
        guard DeepLink(validated: route) != nil,
            LinkValidator(configuration: .init(allowedHosts: [])).validate(route)
                .map({ $0.string == route }) == .success(true)
        else { return false }
        return route.utf8.allSatisfy { byte in
            FormEncoding.isURLByte(byte) && byte != UInt8(ascii: "*") && byte != UInt8(ascii: "?")
                && byte != UInt8(ascii: "%")
        }
    }
}
