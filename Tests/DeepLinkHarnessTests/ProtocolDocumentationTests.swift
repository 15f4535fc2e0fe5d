import DeepLinkCore
import DeepLinkHarness
import Foundation
import SanitizerTraits
import Testing

/// Docs/Protocol.md and Docs/Rules.md state what the code does: the harness's `hello`, the
/// rejection table, and every example of the rules are compared with the code that applies them,
/// so a document that drifts fails here.
@Suite(.startsNoThread) struct ProtocolDocumentationTests {
    static func document(_ name: String) throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return try String(contentsOfFile: root.appendingPathComponent("Docs/\(name)").path, encoding: .utf8)
    }

    /// The lines between `<!-- start…` and `<!-- end…` (exclusive), `start` naming the marker.
    static func section(_ start: String, in text: String) throws -> [Substring] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let first = try #require(lines.firstIndex { $0.hasPrefix("<!-- \(start)") }, "no marker \(start)")
        let last = try #require(lines[first...].firstIndex { $0.hasPrefix("<!-- end") }, "no end after \(start)")
        return Array(lines[(first + 1)..<last])
    }

    /// The rows of a two-column table, each cell's text without its backticks (header and rule
    /// lines left out).
    static func rows(_ start: String, in text: String) throws -> [(String, String)] {
        try section(start, in: text).dropFirst(2).map { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            let unquoted = cells.map { cell in
                cell.hasPrefix("`") && cell.hasSuffix("`") ? String(cell.dropFirst().dropLast()) : cell
            }
            return (unquoted[1], unquoted[2])
        }
    }

    @Test func theHelloExampleIsTheHarnessHello() throws {
        let hello = String(decoding: ExecProtocol.hello(killMode: .message, ttlSeconds: 86_400), as: UTF8.self)
        let document = try Self.document("Protocol.md")
        #expect(document.contains("```json\n" + hello + "```\n"), "Docs/Protocol.md's hello is not \(hello)")
        // Derived from the example app's one policy: /wallet needs a login too.
        #expect(ExecProtocol.gateRules.contains("/wallet loggedIn"))
        #expect(ExecProtocol.loginPrefixes.contains("/wallet"))
    }

    @Test func theRejectionTableListsEveryReasonTheOracleCanExpect() throws {
        let names = try Self.rows("rejections", in: Self.document("Protocol.md")).map(\.0)
        #expect(names == RejectionReason.allCases.map(\.name))
    }

    static func validated(_ payload: String) -> String {
        switch ExampleApp.validator.validate(payload) {
        case .success(let link): link.string
        case .failure(let rejection): "rejected:" + rejection.name
        }
    }

    @Test func everyLinkExampleIsWhatTheValidatorDoes() throws {
        let examples = try Self.rows("link examples", in: Self.document("Rules.md"))
        #expect(examples.count >= 20)
        for (payload, result) in examples {
            #expect(Self.validated(payload) == result, "\(payload)")
        }
        // The prose's limit: 512 bytes pass, 609 do not.
        #expect(Self.validated("/product/" + String(repeating: "a", count: 503)).utf8.count == DeepLink.capacity)
        #expect(Self.validated("/product/" + String(repeating: "a", count: 600)) == "rejected:tooLong")
        #expect(try Self.document("Rules.md").contains("at most **\(DeepLink.capacity) bytes**"))
    }

    @Test func everyReferrerExampleIsWhatTheParserDoes() throws {
        let examples = try Self.rows("referrer examples", in: Self.document("Rules.md"))
        #expect(examples.count >= 8)
        let parser = ReferrerParser()
        for (referrer, result) in examples {
            var pending = PendingLink(
                link: DeepLink(validated: "/")!,
                source: .installReferrer,
                capturedAtNanos: 0,
                id: 0
            )
            var bytes = Array(referrer.utf8)
            let outcome = bytes.withUnsafeMutableBytes { buffer in
                parser.read(
                    UnsafeRawBufferPointer(buffer),
                    validator: ExampleApp.validator,
                    accountKey: ExampleApp.referrerAccountKey,
                    into: &pending
                )
            }
            let actual =
                switch outcome {
                case .link: pending.link.string
                case .organic: "organic"
                case .notSet: "notSet"
                case .noPayload: "noPayload"
                case .rejected(let rejection): "rejected:" + rejection.name
                case .error(let error): "rejected:" + error.name
                }
            #expect(actual == result, "\(referrer)")
        }
    }

    @Test func everyGateExampleIsWhatThePolicyRequires() throws {
        let examples = try Self.rows("gate examples", in: Self.document("Rules.md"))
        #expect(examples.count >= 8)
        for (link, needs) in examples {
            let requirements = ExampleApp.policy.requirements(for: try #require(DeepLink(validated: link)))
            var names: [String] = []
            if requirements.contains(.appReady) { names.append("appReady") }
            if requirements.contains(.loggedIn) { names.append("loggedIn") }
            #expect(names.joined(separator: " ") == needs, "\(link)")
        }
    }

    /// The listed ranges are exactly the code points the validator refuses as invisible (all of
    /// Unicode but the private-use planes).
    @Test func theInvisibleCharacterListIsTheValidators() throws {
        let text = try Self.section("invisible characters", in: Self.document("Rules.md")).joined(separator: " ")
        var ranges: [ClosedRange<UInt32>] = []
        for item in text.split(whereSeparator: { $0 == "," || $0 == " " }) where item.hasPrefix("U+") {
            let bounds = item.split(separator: "…").map { UInt32($0.dropFirst(2), radix: 16)! }
            ranges.append(bounds[0]...bounds[bounds.count - 1])
        }
        #expect(ranges.count > 10)
        for value: UInt32 in 0x20...0xEFFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let refused =
                ExampleApp.validator.validate("/a" + String(Character(scalar))) == .failure(.invisibleCharacter)
            let listed = ranges.contains { $0.contains(value) }
            if refused != listed { Issue.record("U+\(String(value, radix: 16, uppercase: true)): listed \(listed)") }
        }
    }

    @Test func theSignedLinkExampleIsTheCatalogs() throws {
        let signed = try Self.section("signed link", in: Self.document("Rules.md")).joined()
        let url = LinkCatalog.entry(LinkCatalog.signedLink).url
        #expect("`https://\(LinkCatalog.host)" + signed.dropFirst() == "`" + url + "`")
    }
}
