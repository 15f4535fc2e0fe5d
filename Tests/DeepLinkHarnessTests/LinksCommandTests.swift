import DeepLinkCore
import DeepLinkHarness
import Foundation
import Testing

/// `deeplink-bench links` as the real binary runs it, read back by the real `inspect`.
@Suite struct LinksCommandTests {
    static let hasBinary = BenchProcess.binary != nil

    /// The `referrer` query value of a Play Store URL, decoded once (as Play decodes it).
    static func referrer(of url: String) throws -> String {
        let components = try #require(URLComponents(string: url.trimmingCharacters(in: .newlines)))
        #expect(components.scheme == "https")
        #expect(components.host == "play.google.com")
        #expect(components.path == "/store/apps/details")
        return try #require(components.queryItems?.first { $0.name == "referrer" }?.value)
    }

    /// `inspect --jsonl` on `referrer`, with `extra` options; the one JSON object it prints.
    static func inspect(_ referrer: String, _ extra: [String] = []) throws -> [String: Any] {
        let root = ReportFixtures.temporaryDirectory("links-inspect")
        defer { ReportFixtures.remove(root) }
        try Data((referrer + "\n").utf8).write(to: URL(fileURLWithPath: root + "/in"))
        let inspected = try BenchProcess.run(["inspect", "--jsonl"] + extra, stdin: root + "/in")
        #expect(inspected.status == 0, "\(inspected.err)")
        let line = try #require(inspected.out.split(separator: "\n").first)
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    static func keyFile(in root: String, active: String = "k2") throws -> String {
        let path = root + "/keys.json"
        let json = """
            {"active": "\(active)", "keys": [
              {"id": "k1", "secret": "\(String(repeating: "1f", count: 32))"},
              {"id": "k2", "secret": "\(String(repeating: "a7", count: 32))"}]}
            """
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The done-when check of the issue: the printed URL's referrer, decoded once, is the payload
    /// form-encoded once, and `inspect` recovers the path from it.
    @Test(.enabled(if: hasBinary)) func playLinkRoundTripsThroughInspect() throws {
        let made = try BenchProcess.run(["links", "play", "--package", "pro.nerdy.app", "--path", "/product/42"])
        #expect(made.status == 0, "\(made.err)")
        let referrer = try Self.referrer(of: made.out)
        #expect(referrer == "deeplink=%2Fproduct%2F42")
        let json = try Self.inspect(referrer)
        #expect(json["verdict"] as? String == "link")
        #expect(json["link"] as? String == "/product/42")
    }

    @Test(.enabled(if: hasBinary)) func utmFieldsTravelInTheReferrer() throws {
        let made = try BenchProcess.run([
            "links", "play", "--package", "pro.nerdy.app", "--path", "/product/7?ref=share",
            "--utm-source", "news letter", "--utm-campaign", "a&b=c",
        ])
        #expect(made.status == 0, "\(made.err)")
        let json = try Self.inspect(try Self.referrer(of: made.out))
        #expect(json["link"] as? String == "/product/7?ref=share")
        let fields = try #require(json["fields"] as? [[String]])
        #expect(
            fields == [
                ["deeplink", "/product/7?ref=share"], ["utm_source", "news letter"], ["utm_campaign", "a&b=c"],
            ]
        )
    }

    /// A signed link verifies with the key file, and fails with the named reason once tampered with.
    @Test(.enabled(if: hasBinary)) func signedLinkVerifiesAndTamperingIsNamed() throws {
        let root = ReportFixtures.temporaryDirectory("links-signed")
        defer { ReportFixtures.remove(root) }
        let keys = try Self.keyFile(in: root)
        let made = try BenchProcess.run([
            "links", "play", "--package", "pro.nerdy.app", "--path", "/wallet/transfer?to=7",
            "--sign-key-file", keys, "--expires-in", "3600", "--nonce", "00000000000000ff",
        ])
        #expect(made.status == 0, "\(made.err)")
        let referrer = try Self.referrer(of: made.out)
        let verify = ["--verify-key-file", keys, "--signed-routes", "/wallet"]
        let good = try Self.inspect(referrer, verify)
        #expect(good["verdict"] as? String == "link")
        let link = try #require(good["link"] as? String)
        #expect(link.hasPrefix("/wallet/transfer?to=7&dl_kid=k2&dl_exp="))
        #expect(link.contains("&dl_nonce=00000000000000ff&dl_sig="))
        let tampered = referrer.replacingOccurrences(of: "to%3D7", with: "to%3D8")
        #expect(tampered != referrer)
        let bad = try Self.inspect(tampered, verify)
        #expect(bad["verdict"] as? String == "rejected")
        #expect(bad["reason"] as? String == "badSignature")
        // Unsigned, to a signing route.
        let unsigned = try Self.inspect("deeplink=%2Fwallet%2Ftransfer%3Fto%3D7", verify)
        #expect(unsigned["reason"] as? String == "missingSignature")
    }

    @Test(.enabled(if: hasBinary)) func badInputExitsTwoWithANamedError() throws {
        let cases: [([String], String)] = [
            (["links", "play", "--package", "pro..app", "--path", "/product/42"], "invalidPackageName"),
            (["links", "play", "--package", "pro.nerdy.app", "--path", "/a/../b"], "rejected"),
            (["links", "play", "--package", "pro.nerdy.app", "--path", "/product/42#top"], "notCanonical"),
            (["links", "universal", "--host", "nerdy.pro", "--path", "/caf\u{E9}"], "notURLSafe"),
            (["links", "clip", "--default", "--clip-bundle-id", "clip"], "invalidBundleID"),
            (["links", "play", "--package", "pro.nerdy.app"], "missing argument: --path"),
            (["links", "site", "--config", "/nonexistent/site.json", "--out", "/tmp"], "unreadable"),
            (["links", "fly"], "expected one of play, clip, universal, site"),
            (["links", "site", "--package", "x.y", "--config", "c", "--out", "o"], "unknown option '--package'"),
        ]
        for (arguments, expected) in cases {
            let result = try BenchProcess.run(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.err.contains(expected), "\(arguments): \(result.err)")
            #expect(result.out.isEmpty)
        }
    }

    @Test(.enabled(if: hasBinary)) func siteWritesBothFiles() throws {
        let root = ReportFixtures.temporaryDirectory("links-site")
        defer { ReportFixtures.remove(root) }
        let fingerprint = (0..<32).map { String(format: "%02X", $0 * 7 % 256) }.joined(separator: ":")
        let config = """
            {"teamID": "ABCDE12345", "bundleID": "pro.nerdy.app", "clipBundleID": "pro.nerdy.app.Clip",
             "package": "pro.nerdy.app", "sha256CertFingerprints": ["\(fingerprint)"], "routes": ["/product", "/orders"]}
            """
        try Data(config.utf8).write(to: URL(fileURLWithPath: root + "/site.json"))
        let made = try BenchProcess.run(["links", "site", "--config", root + "/site.json", "--out", root + "/out"])
        #expect(made.status == 0, "\(made.err)")
        let apple = try #require(
            FileManager.default.contents(atPath: root + "/out/.well-known/apple-app-site-association")
        )
        let android = try #require(FileManager.default.contents(atPath: root + "/out/.well-known/assetlinks.json"))
        let aasa = try #require(try JSONSerialization.jsonObject(with: apple) as? [String: Any])
        #expect((aasa["appclips"] as? [String: Any])?["apps"] as? [String] == ["ABCDE12345.pro.nerdy.app.Clip"])
        let links = try #require(try JSONSerialization.jsonObject(with: android) as? [[String: Any]])
        #expect((links.first?["target"] as? [String: Any])?["package_name"] as? String == "pro.nerdy.app")
        // A bad team id is named, and nothing is written.
        try Data(config.replacingOccurrences(of: "ABCDE12345", with: "abcde12345").utf8)
            .write(to: URL(fileURLWithPath: root + "/bad.json"))
        let refused = try BenchProcess.run(["links", "site", "--config", root + "/bad.json", "--out", root + "/bad"])
        #expect(refused.status == 2)
        #expect(refused.err.contains("invalidTeamID"))
        #expect(!FileManager.default.fileExists(atPath: root + "/bad"))
    }
}
