import Foundation

/// The two site association files of one ``SiteConfiguration``, as JSON text:
///
/// - `apple-app-site-association` (served from `/.well-known/`): `applinks.details[0]` with
///   `appIDs` (`TEAMID.bundle id`) and `components`, one `{"/": pattern, "caseSensitive": false}`
///   per route form, claiming what the validator's route table accepts (one prefix rule,
///   `PathPrefix`: a segment boundary is the end, `/` or `;`, and ASCII case is folded): a route
///   `/product` (or `/product/`) claims `/product`, `/product/*` and `/product;*`; no route table
///   claims `*`. With a clip bundle id, `appclips.apps` lists `TEAMID.clip bundle id`.
/// - `.well-known/assetlinks.json`: one statement with `relation`
///   `["delegate_permission/common.handle_all_urls"]` and `target` `{"namespace": "android_app",
///   "package_name": …, "sha256_cert_fingerprints": […]}`.
///
/// Thread safety: stateless.
public enum SiteAssociation {
    /// The files' paths inside the output directory.
    public static let appleFile = ".well-known/apple-app-site-association"
    public static let androidFile = ".well-known/assetlinks.json"

    /// The `components` patterns that claim exactly what the route table accepts (matched without
    /// case, as the route table matches).
    public static func patterns(routes: [String]?) -> [String] {
        guard let routes else { return ["*"] }
        return routes.flatMap { route -> [String] in
            // A trailing `/` names the same rule as the route without it.
            var base = Substring(route)
            while base.count > 1, base.hasSuffix("/") { base = base.dropLast() }
            return [String(base), base + "/*", base + ";*"]
        }
    }

    public static func appleAppSiteAssociation(_ configuration: SiteConfiguration) -> String {
        var root: [String: Any] = [
            "applinks": [
                "details": [
                    [
                        "appIDs": ["\(configuration.teamID).\(configuration.bundleID)"],
                        "components": patterns(routes: configuration.routes).map {
                            ["/": $0, "caseSensitive": false] as [String: Any]
                        },
                    ]
                ]
            ]
        ]
        if let clip = configuration.clipBundleID { root["appclips"] = ["apps": ["\(configuration.teamID).\(clip)"]] }
        return json(root)
    }

    public static func assetLinks(_ configuration: SiteConfiguration) -> String {
        json([
            [
                "relation": ["delegate_permission/common.handle_all_urls"],
                "target": [
                    "namespace": "android_app",
                    "package_name": configuration.package,
                    "sha256_cert_fingerprints": configuration.sha256CertFingerprints,
                ],
            ]
        ])
    }

    /// Writes both files under `directory` (creating `.well-known`); returns their paths.
    ///
    /// - Throws: the file system's error.
    public static func write(_ configuration: SiteConfiguration, to directory: String) throws -> [String] {
        let base = URL(fileURLWithPath: directory)
        try FileManager.default.createDirectory(
            at: base.appendingPathComponent(".well-known"),
            withIntermediateDirectories: true
        )
        var written: [String] = []
        for (file, text) in [
            (appleFile, appleAppSiteAssociation(configuration)), (androidFile, assetLinks(configuration)),
        ] {
            let url = base.appendingPathComponent(file)
            try Data(text.utf8).write(to: url, options: .atomic)
            written.append(url.path)
        }
        return written
    }

    private static func json(_ value: Any) -> String {
        // Only strings, arrays and dictionaries built above: serialisation cannot fail.
        let data =
            (try? JSONSerialization.data(
                withJSONObject: value,
                options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            )) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
