import Foundation

/// `deeplink-bench conform STRATEGY`: runs the fixed conformance suite (``ConformanceSuite``,
/// `Docs/Conformance.md`) through one strategy, built in or `exec:NAME`, and prints a checklist:
/// one line per rule, and for each failed rule its journey, what the oracle expects, what the
/// strategy did and the command that runs that rule alone. Exit 0 when every rule passes, 1 when
/// one fails, 2 on a usage error.
///
/// Thread safety: a command runs on the thread that calls `run(io:)`.
package struct ConformCommand: BenchCommand {
    package static let configuration = CommandConfiguration(
        name: "conform",
        abstract: "Check one implementation against a fixed checklist of the spec's rules (exit 1 if one fails).",
        usage:
            "conform STRATEGY [--rule NAME ...] [--exec NAME=COMMAND [--kill message|signal] [--exec-timeout-ms MS] "
            + "[--exec-log-dir DIR]] | conform --list",
        discussion: """
            STRATEGY is core, naive, fingerprint, clipboard or exec:NAME with --exec NAME='COMMAND' (a program \
            speaking Docs/Protocol.md). Each rule is one hand-written journey, judged by the same oracle as run; \
            the rules are listed in Docs/Conformance.md.
            """,
        options: [rule, list] + RunCommand.execOptions
    )

    static let rule = Option(
        "--rule",
        value: "NAME",
        repeatedAs: ValueParser { name throws(OptionValueError) in
            guard let rule = ConformanceSuite.rule(named: name) else {
                throw .expected("a rule name: " + ConformanceSuite.rules.map(\.name).joined(separator: ", "))
            }
            return rule
        },
        help: "Check only this rule (repeatable; see --list)."
    )
    static let list = Flag("--list", help: "List the rules (name, spec section, what each checks) and exit.")

    /// The strategy checked (nil with `--list`).
    package var strategy: StrategyKind?
    package var rules: [ConformanceRule]
    package var execAdapters: [ExecAdapter] = []
    /// The arguments that reproduce this check, without `--rule` (for the reproduce lines).
    var reproduceArguments: [String] = []

    package init(arguments: ParsedArguments) throws(CLIError) {
        rules = ConformanceSuite.rules
        let chosen = arguments[Self.rule]
        if !chosen.isEmpty {
            // Checklist order, whatever the order on the command line.
            rules = ConformanceSuite.rules.filter { rule in chosen.contains { $0.name == rule.name } }
        }
        if arguments[Self.list] {
            if let extra = arguments.positionals.first { throw .unexpectedArgument(extra) }
            return
        }
        guard let name = arguments.positionals.first else {
            throw .missingArgument("STRATEGY (core, naive, fingerprint, clipboard or exec:NAME)")
        }
        if arguments.positionals.count > 1 { throw .unexpectedArgument(arguments.positionals[1]) }
        guard let kind = StrategyKind(rawValue: name) else {
            throw .invalidValue(
                option: "STRATEGY",
                value: name,
                expected: "core, naive, fingerprint, clipboard or exec:NAME (NAME of 1 to 64 letters, digits, "
                    + "'_', '-' or '.')"
            )
        }
        try Self.checkExecNames(arguments, strategy: kind)
        var strategies = [kind]
        execAdapters = try RunCommand.execAdapters(
            from: arguments,
            strategies: &strategies,
            strategiesGiven: true,
            ttlSeconds: ConformanceSuite.ttlSeconds
        )
        try RunCommand.probe(execAdapters)
        strategy = kind
        reproduceArguments = [name]
        for option in RunCommand.execOptions {
            // Every --exec, the others' last value (the one that applies).
            let texts = arguments.texts(option)
            let applied = option.spec.name == Option.exec.name ? texts : Array(texts.suffix(1))
            for text in applied { reproduceArguments += [option.spec.name, text] }
        }
    }

    /// `conform` checks one implementation: every `--exec` must name it, and `exec:NAME` needs one.
    static func checkExecNames(_ arguments: ParsedArguments, strategy: StrategyKind) throws(CLIError) {
        var target: String?
        if case .exec(let name) = strategy { target = name }
        for text in arguments[.exec] {
            // A malformed value is left to the shared parser, which names the expected form.
            guard let equals = text.firstIndex(of: "="), ExecAdapter.isValidName(String(text[..<equals])) else {
                continue
            }
            let name = String(text[..<equals])
            guard name == target else {
                throw .invalidValue(
                    option: Option.exec.name,
                    value: text,
                    expected: "a command for the strategy checked: conform exec:\(name) --exec \(name)=COMMAND "
                        + "(conform checks one implementation at a time)"
                )
            }
        }
        if let target, arguments[.exec].isEmpty {
            throw .invalidValue(
                option: "STRATEGY",
                value: "exec:\(target)",
                expected: "a strategy with a command: add --exec \(target)='COMMAND'"
            )
        }
    }

    package mutating func run(io: CommandIO) throws -> Int32 {
        guard let strategy else {
            io.out(Self.list(rules))
            return 0
        }
        var context = StrategyContext(mix: .default)
        for adapter in execAdapters { context.execAdapters[adapter.name] = adapter }
        let results = ConformanceSuite.check(rules, strategy: strategy, context: context)
        io.out(checklist(results, strategy: strategy))
        return results.allSatisfy(\.passed) ? 0 : 1
    }

    /// The checklist `conform` prints.
    func checklist(_ results: [ConformanceResult], strategy: StrategyKind) -> String {
        let kill = execAdapters.first.map { ", kill: \($0.killMode.rawValue)" } ?? ""
        var text = "conform \(strategy.rawValue): \(results.count) rules of the spec (Docs/Conformance.md)\(kill)\n"
        let width = results.map(\.rule.name.count).max() ?? 0
        for result in results {
            let rule = result.rule
            text += (result.unsupported ? "SKIP  " : result.passed ? "PASS  " : "FAIL  ") + rule.name
            text += String(repeating: " ", count: width - rule.name.count + 2) + rule.spec
            if result.unsupported {
                text += "  (not supported by this program: it answered protocol 1, which carries no signing keys)"
            } else if result.passedOnRoutesAlone {
                text += "  (\(result.outcome.name): the oracle's \(result.expectation.outcome.name) is a reason "
                text += "this strategy does not report, so it is judged on its routes)"
            }
            text += "\n"
            guard !result.passed else { continue }
            text += "      \(result.outcome.name): \(rule.checks)\n"
            let replay = ReplayCommand.Replay(
                journey: rule.journey,
                expectation: result.expectation,
                actual: [(strategy, result.outcome, result.observation)]
            )
            for line in ReplayCommand.detail(replay).split(separator: "\n", omittingEmptySubsequences: false)
            where !line.isEmpty {
                text += "      \(line)\n"
            }
            let command = [Self.binaryPath, "conform"] + reproduceArguments + [Self.rule.name, rule.name]
            text += "      reproduce: " + command.map(Self.shellQuoted).joined(separator: " ") + "\n"
        }
        if !execAdapters.isEmpty { text += RunCommand.execSummary(execAdapters) }
        let failed = results.filter { !$0.passed }.map(\.rule.name)
        let skipped = results.filter(\.unsupported).count
        let passed = results.count - failed.count - skipped
        text += "conform \(strategy.rawValue): \(passed) of \(results.count) rules pass"
        if skipped > 0 { text += ", \(skipped) not supported by this program (protocol 1)" }
        text += failed.isEmpty ? "\n" : "; \(failed.count) fail: " + failed.joined(separator: ", ") + "\n"
        return text
    }

    /// This process's executable, as the reproduce lines name it (a copied line runs the same
    /// binary, not whichever `deeplink-bench` is on the PATH).
    static let binaryPath = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path

    /// `--list`: each rule's name, spec section and what it checks.
    static func list(_ rules: [ConformanceRule]) -> String {
        rules.map { "\($0.name)  \($0.spec)\n  \($0.checks)\n" }.joined()
    }

    /// `text` as one shell word: as is when it holds only safe characters, else in single quotes.
    static func shellQuoted(_ text: String) -> String {
        let safe = text.unicodeScalars.allSatisfy { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || "_-./:=,@%+".unicodeScalars.contains(scalar)
        }
        if safe, !text.isEmpty { return text }
        var quoted = "'"
        for character in text { quoted += character == "'" ? #"'\''"# : String(character) }
        return quoted + "'"
    }
}
