import DeepLinkHarness
import Foundation
import Testing

/// `deeplink-bench conform`: the fixed suite's journeys decide what their rules say, core and
/// serve-core pass every rule, the article's snippet fails the rules it breaks (each named), and
/// usage errors exit 2 before any work.
@Suite struct ConformanceTests {
    /// What the oracle must expect of each rule's journey, written down by hand from the scripts in
    /// ConformanceSuite.swift: a journey that decides something else does not check its rule.
    static let decided: [(rule: String, outcome: String, routeStep: Int)] = [
        ("routes-an-open-link-without-login", "routed", 6),
        ("waits-for-app-ready", "routed", 7),
        ("waits-for-login-on-orders", "routed", 6),
        ("a-logout-closes-the-gate", "routed", 8),
        ("survives-a-kill-before-login", "routed", 10),
        ("routes-a-redelivered-referrer-once", "routed", 6),
        ("reads-a-clip-handoff-once", "routed", 7),
        ("latest-link-wins", "superseded", 10),
        ("keeps-the-query", "routed", 7),
        ("rejects-javascript-payloads", "rejected:disallowedScheme", -1),
        ("rejects-a-foreign-host", "rejected:foreignHost", -1),
        ("expires-after-the-ttl", "expired", -1),
        ("organic-install-routes-nothing", "organic", -1),
        ("routes-a-warm-universal-link-after-login", "routed", 4),
        ("retries-after-service-disconnected", "routed", 7),
        // Android install (steps 0-2), launch 3, referrer 4, appReady 5, login 6.
        ("gates-a-differently-cased-path", "routed", 6),
        ("gates-a-percent-encoded-letter", "routed", 6),
        // ... another account's login 6, logout 7, alice's login 8.
        ("routes-an-account-bound-link-only-for-its-account", "routed", 8),
        // Warm: launch 0, appReady 1, session 2, tap 3, open 4 (routed), tap 5, open 6 (replayed).
        ("refuses-a-replayed-signed-link", "routed", 4),
        ("rejects-an-unsigned-link-under-a-signed-prefix", "rejected:missingSignature", -1),
        ("rejects-a-tampered-signed-link", "rejected:badSignature", -1),
        ("rejects-an-expired-signature", "rejected:expiredSignature", -1),
        ("rejects-a-signature-by-an-unknown-key", "rejected:unknownKey", -1),
        // iOS install (steps 0-4), launch 5, appReady 6: declined, then routed within the step.
        ("offers-a-declined-link-again", "routed", 6),
        // ... appReady 5, kill 6, launch 7, the same referrer 8, appReady 9, login 10.
        ("a-redelivered-referrer-is-not-a-new-link", "routed", 10),
    ]

    /// The rules that need protocol 2 (signing keys): a protocol-1 program is not judged on them.
    static let signedRules: Set<String> = [
        "refuses-a-replayed-signed-link", "rejects-an-unsigned-link-under-a-signed-prefix",
        "rejects-a-tampered-signed-link", "rejects-an-expired-signature", "rejects-a-signature-by-an-unknown-key",
    ]

    /// The rules the Python snippet breaks: everything but the happy login path, the clip's
    /// read-once (it removes on read), latest wins (one overwritten key), organic and the warm path.
    static let snippetFails: Set<String> = [
        "routes-an-open-link-without-login", "waits-for-app-ready", "a-logout-closes-the-gate",
        "survives-a-kill-before-login", "routes-a-redelivered-referrer-once", "keeps-the-query",
        "rejects-javascript-payloads", "rejects-a-foreign-host", "expires-after-the-ttl",
        "retries-after-service-disconnected",
        // It never decodes (/%6Frders/42 is routed as written), binds no account, and treats the
        // router's call as done (a declined link is lost).
        "gates-a-percent-encoded-letter", "routes-an-account-bound-link-only-for-its-account",
        "offers-a-declined-link-again",
    ]

    static func conform(_ arguments: [String]) -> (status: Int32, out: String, err: String) {
        let out = ExecTestOutput()
        let err = ExecTestOutput()
        let io = CommandIO(stdout: { out.append($0) }, stderr: { err.append($0) })
        let status = DeepLinkBench.main(arguments: ["conform"] + arguments, io: io)
        return (status, out.text, err.text)
    }

    /// The rule names a checklist marks with `mark` (`PASS` or `FAIL`).
    static func rules(marked mark: String, in text: String) -> Set<String> {
        var names: Set<String> = []
        for line in text.split(separator: "\n") where line.hasPrefix(mark + "  ") {
            names.insert(String(line.dropFirst(mark.count + 2).prefix { $0 != " " }))
        }
        return names
    }

    @Test func everyRuleJourneyDecidesWhatItsRuleSays() {
        let rules = ConformanceSuite.rules
        #expect(rules.map(\.name) == Self.decided.map(\.rule))
        #expect(Set(rules.map(\.name)).count == rules.count)
        let oracle = Oracle(ttlSeconds: ConformanceSuite.ttlSeconds)
        for (position, rule) in rules.enumerated() {
            let expectation = oracle.expect(rule.journey)
            let decided = Self.decided[position]
            #expect(expectation.outcome.name == decided.outcome, "\(rule.name)")
            #expect(expectation.routeStep == decided.routeStep, "\(rule.name)")
            #expect(!expectation.endedPending, "\(rule.name)")
            #expect(rule.journey.index == UInt64(position))
            #expect(!rule.checks.isEmpty && rule.spec.hasPrefix("SPEC "))
        }
        let latest = rules.first { $0.name == "latest-link-wins" }!
        #expect(oracle.expect(latest.journey).targetSlot == 1)
    }

    @Test func coreAndItsModelsOfTheSnippetAreJudgedByTheOracle() {
        let context = StrategyContext(mix: .default)
        let core = ConformanceSuite.check(ConformanceSuite.rules, strategy: .core, context: context)
        #expect(core.count == ConformanceSuite.rules.count)
        #expect(core.allSatisfy { $0.passed })
        // Core reports every reason, so it passes on the oracle's own reasons, not on routes alone.
        #expect(core.allSatisfy { $0.outcome == $0.expectation.outcome })
        let naive = ConformanceSuite.check(ConformanceSuite.rules, strategy: .naive, context: context)
        // The built-in model of the snippet keeps the query (the Python translation does not) and
        // routes catalog links, not their spelling; it checks no signature (it is judged on
        // signed links, being built in).
        #expect(
            Set(naive.filter { !$0.passed }.map(\.rule.name))
                == Self.snippetFails.subtracting(["keeps-the-query", "gates-a-percent-encoded-letter"])
                .union(Self.signedRules)
        )
    }

    @Test func everyMiswiringOfCoreFailsSomeRule() {
        let miswirings: [CoreStrategy.Faults] = [
            .routeTwice, .ignoreLoginGate, .forgetOnKill, .wrongRejectionReason, .placeholderMisread, .lateRoute,
            .noTimestampDedupe, .ignoreExpiry, .expiryReportedAsSuperseded, .routeRejected,
        ]
        for fault in miswirings {
            var context = StrategyContext(mix: .default)
            context.coreFaults = fault
            let results = ConformanceSuite.check(ConformanceSuite.rules, strategy: .core, context: context)
            #expect(results.contains { !$0.passed }, "fault \(fault.rawValue) passes every rule")
        }
    }

    @Test func serveCorePassesEveryRuleWithMessagesAndRealKills() throws {
        let binary = try #require(ExecStrategyTests.benchBinary(), "deeplink-bench not built next to the tests")
        for kill in ["message", "signal"] {
            let result = Self.conform(["exec:served", "--exec", "served='\(binary)' serve-core", "--kill", kill])
            #expect(result.status == 0, "\(result.out)\(result.err)")
            #expect(Self.rules(marked: "PASS", in: result.out) == Set(Self.decided.map(\.rule)))
            #expect(Self.rules(marked: "FAIL", in: result.out).isEmpty)
            #expect(result.out.contains("exec:served: 0 protocol errors (kill: \(kill))"))
            #expect(result.out.hasSuffix("conform exec:served: 25 of 25 rules pass\n"))
        }
        let core = Self.conform(["core"])
        #expect(core.status == 0)
        #expect(core.out.hasSuffix("conform core: 25 of 25 rules pass\n"))
    }

    @Test func theSnippetFailsAndEachFailedRuleIsNamedWithItsReproduction() {
        let command = "python3 '\(ExecStrategyTests.script("snippet_adapter.py"))'"
        let result = Self.conform(["exec:snippet", "--exec", "snippet=" + command])
        #expect(result.status == 1)
        let failed = Self.rules(marked: "FAIL", in: result.out)
        #expect(failed == Self.snippetFails)
        // It answers protocol 1: the signed-link rules are not judged, neither passed nor failed.
        #expect(Self.rules(marked: "SKIP", in: result.out) == Self.signedRules)
        #expect(
            Self.rules(marked: "PASS", in: result.out)
                == Set(Self.decided.map(\.rule)).subtracting(failed).subtracting(Self.signedRules)
        )
        let names = Self.decided.map(\.rule).filter { failed.contains($0) }
        #expect(result.out.contains("5 not supported by this program (protocol 1); "))
        #expect(result.out.contains("13 fail: " + names.joined(separator: ", ") + "\n"))
        // The kill before login loses the link; the re-delivered referrer routes twice.
        #expect(result.out.contains("      lost: A clip link read at launch and killed before login"))
        #expect(result.out.contains("      duplicated: Play hands the same referrer"))
        for name in failed {
            #expect(result.out.contains("--rule \(name)\n"), "no reproduce line for \(name)")
        }
        // The reproduce line runs that rule alone, with the same verdict.
        let alone = Self.conform(["exec:snippet", "--exec", "snippet=" + command, "--rule", "keeps-the-query"])
        #expect(alone.status == 1)
        #expect(Self.rules(marked: "FAIL", in: alone.out) == ["keeps-the-query"])
        #expect(alone.out.contains("misrouted"))
        #expect(alone.out.hasSuffix("0 of 1 rules pass; 1 fail: keeps-the-query\n"))
    }

    @Test func aChildThatCrashesOnARuleFailsThatRuleAsTrapped() {
        // The faulty adapter exits on journey 7: latest-link-wins, the rule at position 7.
        let command = "python3 '\(ExecStrategyTests.script("faulty_adapter.py"))' crash"
        let out = ExecTestOutput()
        let io = CommandIO(stdout: { out.append($0) }, stderr: { out.append($0) })
        let status = DeepLinkBench.main(
            arguments: ["conform", "exec:faulty", "--exec", "faulty=" + command, "--rule", "latest-link-wins"],
            io: io
        )
        #expect(status == 1)
        #expect(out.text.contains("      trapped: Two clip runs before the install"))
        #expect(out.text.contains("exec:faulty: 1 protocol errors (crashed 1)"))
    }

    @Test(arguments: [
        ([], "missing argument: STRATEGY"),
        (["bogus"], "invalid value 'bogus' for 'STRATEGY'"),
        (["core", "naive"], "unexpected argument 'naive'"),
        (["exec:mine"], "add --exec mine='COMMAND'"),
        (["core", "--exec", "other=cat"], "conform exec:other --exec other=COMMAND"),
        (["exec:mine", "--exec", "other=cat"], "conform exec:other --exec other=COMMAND"),
        (["core", "--rule", "nope"], "invalid value 'nope' for '--rule': expected a rule name: routes-an-open"),
        (["core", "--kill", "signal"], "an --exec to apply to"),
        (["exec:mine", "--exec", "mine=/bin/echo hi"], "--exec mine:"),
        (["exec:mine", "--exec", "bad name=cat"], "expected NAME=COMMAND, NAME of 1 to 64"),
        (["--list", "core"], "unexpected argument 'core'"),
    ])
    func usageErrorsExitTwoBeforeAnyRuleRuns(arguments: [String], message: String) {
        let result = Self.conform(arguments)
        #expect(result.status == 2)
        #expect(result.out.isEmpty)
        #expect(result.err.contains(message), "\(result.err)")
    }

    @Test func listNamesEveryRuleAndTheDocumentDescribesEach() throws {
        let list = Self.conform(["--list"])
        #expect(list.status == 0)
        let document = try String(
            contentsOfFile: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Docs/Conformance.md").path,
            encoding: .utf8
        )
        for rule in ConformanceSuite.rules {
            #expect(list.out.contains("\(rule.name)  \(rule.spec)\n  \(rule.checks)\n"))
            #expect(document.contains("`\(rule.name)`"), "Docs/Conformance.md does not describe \(rule.name)")
        }
    }
}
