import DeepLinkCore
import DeepLinkCoreTestSupport
import DeepLinkLinks
import Foundation
import Testing

@Suite struct SiteAssociationTests {
    static let fingerprint = (0..<32).map { String(format: "%02X", ($0 * 37) % 256) }.joined(separator: ":")
    static let routes = ["/product", "/orders/", "/invite"]
    static let configuration = try! SiteConfiguration(
        teamID: "ABCDE12345",
        bundleID: "pro.nerdy.app",
        clipBundleID: "pro.nerdy.app.Clip",
        package: "pro.nerdy.app",
        sha256CertFingerprints: [fingerprint],
        routes: routes
    )

    static func object(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

    /// Apple's documented fields and types: `applinks.details[]` of `appIDs` (strings) and
    /// `components` (objects with a `/` string and a `caseSensitive` boolean), `appclips.apps` (strings).
    @Test func appleFileHasTheDocumentedFields() throws {
        let root = try #require(
            try Self.object(SiteAssociation.appleAppSiteAssociation(Self.configuration)) as? [String: Any]
        )
        #expect(Set(root.keys) == ["applinks", "appclips"])
        let applinks = try #require(root["applinks"] as? [String: Any])
        let details = try #require(applinks["details"] as? [[String: Any]])
        #expect(details.count == 1)
        #expect(details[0]["appIDs"] as? [String] == ["ABCDE12345.pro.nerdy.app"])
        let components = try #require(details[0]["components"] as? [[String: Any]])
        #expect(
            components.allSatisfy { Set($0.keys) == ["/", "caseSensitive"] && $0["caseSensitive"] as? Bool == false }
        )
        #expect(
            components.map { $0["/"] as? String } == [
                "/product", "/product/*", "/product;*", "/orders", "/orders/*", "/orders;*", "/invite", "/invite/*",
                "/invite;*",
            ]
        )
        #expect((root["appclips"] as? [String: Any])?["apps"] as? [String] == ["ABCDE12345.pro.nerdy.app.Clip"])
        // No clip bundle id: no appclips section.
        var noClip = Self.configuration
        noClip.clipBundleID = nil
        let plain = try #require(try Self.object(SiteAssociation.appleAppSiteAssociation(noClip)) as? [String: Any])
        #expect(plain["appclips"] == nil)
    }

    /// Google's Digital Asset Links statement list.
    @Test func androidFileHasTheDocumentedFields() throws {
        let list = try #require(try Self.object(SiteAssociation.assetLinks(Self.configuration)) as? [[String: Any]])
        #expect(list.count == 1)
        #expect(list[0]["relation"] as? [String] == ["delegate_permission/common.handle_all_urls"])
        let target = try #require(list[0]["target"] as? [String: Any])
        #expect(target["namespace"] as? String == "android_app")
        #expect(target["package_name"] as? String == "pro.nerdy.app")
        #expect(target["sha256_cert_fingerprints"] as? [String] == [Self.fingerprint])
    }

    /// An AASA path pattern: `*` any run, `?` any one character (Apple's matching, which the
    /// patterns above use only as a trailing `*`).
    static func matches(_ pattern: [UInt8], _ path: [UInt8]) -> Bool {
        guard let first = pattern.first else { return path.isEmpty }
        if first == UInt8(ascii: "*") {
            return (0...path.count).contains { matches(Array(pattern.dropFirst()), Array(path.dropFirst($0))) }
        }
        guard let head = path.first, first == UInt8(ascii: "?") || first == head else { return false }
        return matches(Array(pattern.dropFirst()), Array(path.dropFirst()))
    }

    /// The paths the file claims are exactly the paths the validator's route table accepts.
    @Test func claimedPathsAreTheValidatorsRoutes() {
        let validator = LinkValidator(configuration: Self.configuration.validatorConfiguration(allowedHosts: []))
        let patterns = SiteAssociation.patterns(routes: Self.routes).map { Array($0.lowercased().utf8) }
        var random = SeededGenerator(seed: 2)
        let pieces = [
            "/product", "/products", "/orders", "/orders/", "/invite", "/inv", "/", "/7", "ite", "/x", "s", "42",
            "/Product", "/ORDERS", ";v=2",
        ]
        var accepted = 0
        for _ in 0..<3_000 {
            let path = (0..<Int.random(in: 1...4, using: &random)).map { _ in pieces.randomElement(using: &random)! }
                .joined()
            guard path.hasPrefix("/"), !path.hasPrefix("//") else { continue }
            // Every component is `caseSensitive: false`: Apple folds case, as the route table does.
            let claimed = patterns.contains { Self.matches($0, Array(path.lowercased().utf8)) }
            let routed = (try? validator.validate(path).get()) != nil
            #expect(claimed == routed, "\(path): claimed \(claimed), validator \(routed)")
            if routed { accepted += 1 }
        }
        #expect(accepted > 300)
        #expect(SiteAssociation.patterns(routes: nil) == ["*"])
    }

    @Test func configurationErrorsAreNamed() throws {
        func load(_ changes: [String: Any]) -> SiteConfigurationError? {
            var object: [String: Any] = [
                "teamID": "ABCDE12345", "bundleID": "pro.nerdy.app", "package": "pro.nerdy.app",
                "sha256CertFingerprints": [Self.fingerprint],
            ]
            for (key, value) in changes { object[key] = value }
            let data = try! JSONSerialization.data(withJSONObject: object)
            do {
                _ = try SiteConfiguration(json: Array(data), path: "site.json")
                return nil
            } catch {
                return error
            }
        }
        #expect(load([:]) == nil)
        #expect(load(["teamID": "ABCDE1234"]) == .invalidTeamID("ABCDE1234"))
        #expect(load(["teamID": "abcde12345"]) == .invalidTeamID("abcde12345"))
        #expect(load(["bundleID": "pro..app"]) == .invalidBundleID("pro..app"))
        #expect(load(["clipBundleID": "clip"]) == .invalidBundleID("clip"))
        #expect(load(["package": "pro.1app"]) == .invalidPackageName("pro.1app"))
        let lower = Self.fingerprint.lowercased()
        #expect(load(["sha256CertFingerprints": [lower]]) == .invalidFingerprint(lower))
        let short = String(Self.fingerprint.dropLast(3))
        #expect(load(["sha256CertFingerprints": [short]]) == .invalidFingerprint(short))
        #expect(load(["sha256CertFingerprints": []]) == .noFingerprints)
        #expect(load(["routes": ["/a*"]]) == .invalidRoute("/a*"))
        #expect(load(["routes": ["product"]]) == .invalidRoute("product"))
        #expect(load(["routes": "/a"]) == .notAStringList(path: "site.json", field: "routes"))
        #expect(load(["extra": 1]) == .unknownField(path: "site.json", field: "extra"))
        #expect(SiteConfigurationError.invalidTeamID("x").message.contains("10 uppercase"))
    }
}
