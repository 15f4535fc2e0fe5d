import DeepLinkHarness
import Foundation
import Testing

/// `exec:` strategies over the journey protocol (Docs/Protocol.md): serve-core matches in-process
/// core; the article's snippet in Python loses and duplicates links; misbehaving children fail only
/// their journeys.
@Suite struct ExecStrategyTests {
    /// `deeplink-bench`, built by `swift test` next to the test binary; `DEEPLINK_BENCH_BINARY`
    /// overrides.
    static func benchBinary() -> String? {
        if let override = ProcessInfo.processInfo.environment["DEEPLINK_BENCH_BINARY"] { return override }
        let directories = [
            Bundle.main.bundlePath,
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path,
        ]
        return directories.map { $0 + "/deeplink-bench" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// `Tests/Exec/<name>` in this checkout.
    static func script(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Exec").appendingPathComponent(name).path
    }

    static func adapter(
        _ name: String,
        _ command: String,
        kill: ExecAdapter.KillMode = .message,
        timeoutMillis: UInt64 = 5_000
    ) -> ExecAdapter {
        let root = ExecAdapter.temporaryRoot()
        return ExecAdapter(
            name: name,
            command: command,
            killMode: kill,
            timeoutNanos: timeoutMillis * 1_000_000,
            logDirectory: root,
            stateRoot: root + "/state",
            ttlSeconds: StrategyContext(mix: .default).ttlSeconds
        )
    }

    static func run(
        _ strategies: [StrategyKind],
        adapters: [ExecAdapter],
        journeys: UInt64,
        seed: UInt64 = 7
    ) -> RunResult {
        var configuration = RunConfiguration(
            journeys: journeys,
            seed: seed,
            threads: 2,
            strategies: strategies,
            raceShare: 0
        )
        configuration.execAdapters = adapters
        return Runner.run(configuration)
    }

    /// Journeys through `serve-core`: under a sanitizer the child is the instrumented debug binary,
    /// one round trip per journey, so fewer (the same protocol and runner threads all the same).
    static let servedJourneys: UInt64 = Sanitizer.isActive ? 1_500 : 6_000

    @Test func serveCoreMatchesInProcessCoreOutcomeForOutcome() throws {
        let binary = try #require(Self.benchBinary(), "deeplink-bench not built next to the tests")
        let adapter = Self.adapter("served", "'\(binary)' serve-core")
        let result = Self.run([.core, .exec("served")], adapters: [adapter], journeys: Self.servedJourneys)
        let core = result.tallies[0]
        let served = result.tallies[1]
        #expect(served.kind.rawValue == "exec:served")
        #expect(served.journeys == Self.servedJourneys)
        #expect(served.violationCount == 0)
        #expect(adapter.errorTally.total == 0)
        // Per scenario class and outcome, not only in total.
        #expect(served.counts == core.counts)
        #expect(core.total(.routed) > Self.servedJourneys / 6)
    }

    @Test func theArticleSnippetInPythonLosesAndDuplicatesLinks() {
        let adapter = Self.adapter("snippet", "python3 '\(Self.script("snippet_adapter.py"))'")
        let result = Self.run([.naive, .exec("snippet")], adapters: [adapter], journeys: 3_000)
        let snippet = result.tallies[1]
        #expect(adapter.errorTally.total == 0)
        #expect(snippet.total(.lost) > 0)
        #expect(snippet.total(.duplicated) > 0)
        #expect(snippet.total(.premature) > 0)
        // The same losses as the built-in model of the snippet: a kill before login loses both.
        #expect(snippet.total(.lost) == result.tallies[0].total(.lost))
    }

    @Test(arguments: [
        ("crash", ExecErrorTally.Kind.crashed, JourneyOutcome.trapped),
        ("garbage", .invalidJSON, .trapped),
        ("breach", .protocolBreach, .trapped),
        ("hang", .hung, .hung),
    ])
    func aMisbehavingChildFailsOnlyItsJourneys(mode: String, kind: ExecErrorTally.Kind, outcome: JourneyOutcome) {
        let adapter = Self.adapter(
            "faulty",
            "python3 '\(Self.script("faulty_adapter.py"))' \(mode)",
            timeoutMillis: 300
        )
        // Journeys 7, 57, 107 misbehave (index 7 modulo 50).
        let result = Self.run([.exec("faulty")], adapters: [adapter], journeys: 150)
        let tally = result.tallies[0]
        #expect(tally.journeys == 150)
        #expect(tally.total(outcome) == 3)
        #expect(adapter.errorTally.count(kind) == 3)
        #expect(adapter.errorTally.total == 3)
        #expect(Set(tally.violations.filter { $0.actual == outcome }.map(\.index)) == [7, 57, 107])
    }

    @Test func realKillsGiveTheSnippetTheSameOutcomesAsKillMessages() {
        let command = "python3 '\(Self.script("snippet_adapter.py"))'"
        let message = Self.adapter("snippet", command)
        let signal = Self.adapter("snippet", command, kill: .signal)
        let byMessage = Self.run([.exec("snippet")], adapters: [message], journeys: 150)
        let bySignal = Self.run([.exec("snippet")], adapters: [signal], journeys: 150)
        #expect(signal.errorTally.total == 0)
        #expect(bySignal.tallies[0].counts == byMessage.tallies[0].counts)
    }

    @Test func aCommandThatIsNotAnAdapterIsAUsageError() {
        let out = ExecTestOutput()
        let io = CommandIO(stdout: { out.append($0) }, stderr: { out.append($0) })
        let missing = DeepLinkBench.main(
            arguments: ["run", "--journeys", "10", "--strategies", "core,exec:nobody", "--quiet"],
            io: io
        )
        #expect(missing == 2)
        #expect(out.text.contains("add --exec nobody="))
        let notAdapter = DeepLinkBench.main(
            arguments: ["run", "--journeys", "10", "--exec", "cat=/bin/echo hi", "--quiet", "--out", "/tmp/x-exec"],
            io: io
        )
        #expect(notAdapter == 2)
        #expect(out.text.contains("--exec cat:"))
    }

    @Test func protocolJSONIsStrict() throws {
        let good = try ProtocolJSON.parse(Array(#"{"type":"route","journey":3,"seq":5,"link":"/a\"b\u00e9"}"#.utf8))
        #expect(good.string("type") == "route")
        #expect(good.integer("journey") == 3)
        #expect(good.string("link") == "/a\"bé")
        for bad in [
            "", "{", "{\"a\":1,}", "{\"a\":01}", "{\"a\":1.5}", "{\"a\":{}}", "{\"a\":1} x", "[1]",
            "{\"a\":\"\u{01}\"}", "{\"a\":99999999999999999999}",
        ] {
            #expect(throws: ProtocolJSON.ParseError.self) { try ProtocolJSON.parse(Array(bad.utf8)) }
        }
    }

    /// Objects and arrays share one rule after an element: a `,` and another, or the closing byte.
    @Test func membersAndItemsEndAlike() throws {
        let list = try ProtocolJSON.parse(Array(#"{ "a" : [ "x" , "y" ] , "b" : 1 }"#.utf8))
        #expect(list.members.count == 2)
        #expect(list.integer("b") == 1)
        let cases: [(String, String)] = [
            (#"{"a":1"#, "unterminated object"), (#"{"a":["x""#, "unterminated array"),
            (#"{"a":1 "b":2}"#, "expected '}'"), (#"{"a":["x" "y"]}"#, "expected ']'"),
        ]
        for (bad, problem) in cases {
            let error = #expect(throws: ProtocolJSON.ParseError.self) { try ProtocolJSON.parse(Array(bad.utf8)) }
            #expect(error?.problem == problem, "\(bad)")
        }
    }
}

/// Collects a command's stdout and stderr (a command writes from the thread that runs it).
final class ExecTestOutput {
    var text = ""
    func append(_ text: String) { self.text += text }
}
