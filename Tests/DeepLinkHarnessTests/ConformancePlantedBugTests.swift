import DeepLinkHarness
import Testing

/// `conform` catches what `run` catches: a protocol-2 adapter written from the documents
/// (Tests/Exec/rules_adapter.py) passes every rule, and each bug planted in it fails the one rule
/// that checks what the bug breaks, with the outcome the bug produces.
@Suite struct ConformancePlantedBugTests {
    static func check(bug: String?, kill: ExecAdapter.KillMode = .message) -> [ConformanceResult] {
        let script = "python3 '\(ExecStrategyTests.script("rules_adapter.py"))'"
        let adapter = ExecStrategyTests.adapter("rules", script + (bug.map { " --bug \($0)" } ?? ""), kill: kill)
        var context = StrategyContext(mix: .default)
        context.execAdapters[adapter.name] = adapter
        let results = ConformanceSuite.check(ConformanceSuite.rules, strategy: .exec("rules"), context: context)
        #expect(adapter.errorTally.total == 0)
        return results
    }

    @Test(arguments: [ExecAdapter.KillMode.message, .signal])
    func theDocumentsAdapterPassesEveryRule(kill: ExecAdapter.KillMode) {
        let results = Self.check(bug: nil, kill: kill)
        #expect(results.count == ConformanceSuite.rules.count)
        #expect(results.filter { !$0.passed }.map(\.rule.name) == [])
        #expect(!results.contains { $0.unsupported })
        // It claims every reason, so it passes on the oracle's reasons, not on its routes alone.
        #expect(results.allSatisfy { $0.outcome == $0.expectation.outcome })
    }

    @Test(arguments: [
        ("case-sensitive-gate", "gates-a-differently-cased-path", "premature"),
        ("any-account", "routes-an-account-bound-link-only-for-its-account", "premature"),
        ("accept-replay", "refuses-a-replayed-signed-link", "duplicated"),
        ("replay-as-duplicate", "refuses-a-replayed-signed-link", "misjudged"),
        ("drop-not-ready", "offers-a-declined-link-again", "lost"),
        ("redelivery-supersedes", "a-redelivered-referrer-is-not-a-new-link", "misjudged"),
    ])
    func eachPlantedBugFailsItsRule(bug: String, rule: String, outcome: String) {
        let failed = Self.check(bug: bug).filter { !$0.passed }
        #expect(failed.map(\.rule.name) == [rule])
        #expect(failed.map(\.outcome.name) == [outcome])
    }

    /// A program that checks no signature routes the forgeries: `unsafe` (a rejected payload
    /// routed, though the router got it as a path, not as a catalog link), and the replay twice.
    @Test func forgeriesRoutedAreUnsafe() {
        let failed = Self.check(bug: "no-signature-check").filter { !$0.passed }
        #expect(
            failed.map { "\($0.rule.name) \($0.outcome.name)" } == [
                "refuses-a-replayed-signed-link duplicated",
                "rejects-an-unsigned-link-under-a-signed-prefix unsafe",
                "rejects-a-tampered-signed-link unsafe",
                "rejects-an-expired-signature unsafe",
                "rejects-a-signature-by-an-unknown-key unsafe",
            ]
        )
    }

    /// A protocol-1 program (the article's snippet) is not sent the journeys that tap signed links:
    /// counted apart, never its violations.
    @Test func aProtocolOneProgramIsNotJudgedOnSignedLinks() {
        let adapter = ExecStrategyTests.adapter(
            "snippet",
            "python3 '\(ExecStrategyTests.script("snippet_adapter.py"))'"
        )
        var mix = ScenarioMix.default
        for perturbation in Perturbation.allCases { mix.perturbationWeights[Int(perturbation.rawValue)] = 0 }
        mix.perturbationWeights[Int(Perturbation.forged.rawValue)] = 1
        var configuration = RunConfiguration(
            journeys: 300,
            seed: 3,
            threads: 2,
            strategies: [.exec("snippet")],
            raceShare: 0
        )
        configuration.mix = mix
        configuration.execAdapters = [adapter]
        let result = Runner.run(configuration)
        #expect(adapter.unsupportedJourneys == 300)
        #expect(result.tallies[0].violationCount == 0)
        #expect(result.tallies[0].total(.noLink) == 300)
        #expect(adapter.errorTally.total == 0)
    }
}
