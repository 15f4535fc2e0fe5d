import DeepLinkHarness
import Foundation
import Testing

@Suite struct ScenarioMixTests {
    static func parse(_ json: String) -> Result<ScenarioMix, ScenarioMixError> {
        do throws(ScenarioMixError) {
            return .success(try ScenarioMix.parsing(Array(json.utf8), path: "mix.json"))
        } catch {
            return .failure(error)
        }
    }

    @Test func overridesOnlyTheGivenKeys() throws {
        let mix = try Self.parse(#"{"perturbation.kill": 0.5, "fingerprint.sharedIPShare": 1, "ttlSeconds": 60}"#).get()
        #expect(mix.perturbationWeights[Int(Perturbation.kill.rawValue)] == 0.5)
        #expect(mix.sharedIPShare == 1)
        #expect(mix.ttlSeconds == 60)
        #expect(mix.collisionShare == ScenarioMix.default.collisionShare)
        #expect(mix.platformWeights == ScenarioMix.default.platformWeights)
    }

    @Test func namesTheOffendingKey() {
        #expect(throws: Never.self) { try Self.parse("{}").get() }
        let cases: [(String, ScenarioMixError)] = [
            (#"{"perturbation.kil": 1}"#, .unknownKey(path: "mix.json", key: "perturbation.kil")),
            (
                #"{"fingerprint.collisionShare": 1.5}"#,
                .invalidValue(path: "mix.json", key: "fingerprint.collisionShare", expected: "a number in 0...1")
            ),
            (#"{"platform.ios": -1}"#, .invalidValue(path: "mix.json", key: "platform.ios", expected: "a number >= 0")),
            (
                #"{"platform.ios": "x"}"#,
                .invalidValue(path: "mix.json", key: "platform.ios", expected: "a number >= 0")
            ),
            (
                #"{"platform.ios": true}"#,
                .invalidValue(path: "mix.json", key: "platform.ios", expected: "a number >= 0")
            ),
            (
                #"{"platform.ios": 0, "platform.android": 0, "platform.installed": 0}"#,
                .allZero(path: "mix.json", group: "platform")
            ),
            ("[1, 2]", .notAnObject(path: "mix.json")),
            ("{", .unreadable(path: "mix.json", detail: "not valid JSON")),
        ]
        for (json, expected) in cases {
            switch Self.parse(json) {
            case .success: Issue.record("accepted \(json)")
            case .failure(let error): #expect(error == expected, "for \(json)")
            }
        }
        #expect(ScenarioMixError.unknownKey(path: "m.json", key: "bogus").message.contains("'bogus'"))
    }

    @Test func runRejectsABadMixFileWithExitTwo() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mix-\(UInt32.random(in: 0...UInt32.max)).json"
        ).path
        try Data(#"{"clipboard.pasteDeclineShare": 2}"#.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var errors = ""
        let io = CommandIO(stdout: { _ in }, stderr: { errors += $0 })
        let status = DeepLinkBench.main(arguments: ["run", "--journeys", "10", "--mix", path, "--quiet"], io: io)
        #expect(status == 2)
        #expect(errors.contains("clipboard.pasteDeclineShare"))
    }
}
