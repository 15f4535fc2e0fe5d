import Foundation

/// `run`'s options for implementations outside the harness (`exec:NAME`, `Docs/Protocol.md`).
extension RunCommand {
    /// The options `run` and `conform` take for `exec:` strategies.
    static let execOptions: [any DeclaredOption] = [
        Option.exec, Option.kill, Option.execTimeoutMilliseconds, Option.execLogDirectory,
    ]

    /// The `--exec` adapters, checked against the strategies that name them; `strategies` gains
    /// every `exec:NAME` when `--strategies` was not given.
    static func execAdapters(
        from arguments: ParsedArguments,
        strategies: inout [StrategyKind],
        strategiesGiven: Bool,
        ttlSeconds: UInt32
    ) throws(CLIError) -> [ExecAdapter] {
        var commands: [(name: String, command: String)] = []
        for text in arguments[.exec] {
            guard let equals = text.firstIndex(of: "="), ExecAdapter.isValidName(String(text[..<equals])),
                !text[text.index(after: equals)...].allSatisfy({ $0 == " " })
            else {
                throw .invalidValue(
                    option: Option.exec.name,
                    value: text,
                    expected: "NAME=COMMAND, NAME of 1 to 64 letters, digits, '_', '-' or '.', and a command line"
                )
            }
            let name = String(text[..<equals])
            guard !commands.contains(where: { $0.name == name }) else {
                throw .invalidValue(
                    option: Option.exec.name,
                    value: text,
                    expected: "each NAME once (\(name) is given twice)"
                )
            }
            commands.append((name, String(text[text.index(after: equals)...])))
        }
        let named = strategies.compactMap { kind -> String? in
            if case .exec(let name) = kind { return name }
            return nil
        }
        for name in named where !commands.contains(where: { $0.name == name }) {
            throw .invalidValue(
                option: Option.strategies.name,
                value: "exec:\(name)",
                expected: "a strategy with a command: add --exec \(name)='COMMAND'"
            )
        }
        for (name, _) in commands where !named.contains(name) {
            guard !strategiesGiven else {
                throw .invalidValue(
                    option: Option.exec.name,
                    value: name,
                    expected: "a NAME that --strategies lists as exec:\(name) (or leave --strategies out)"
                )
            }
            strategies.append(.exec(name))
        }
        guard !commands.isEmpty else {
            for option in execOptions where option.spec.name != Option.exec.name {
                if let text = arguments.texts(option).last {
                    throw .invalidValue(option: option.spec.name, value: text, expected: "an --exec to apply to")
                }
            }
            return []
        }
        let killMode = arguments[.kill] ?? .message
        let timeoutMillis = arguments[.execTimeoutMilliseconds] ?? 2_000
        // Logs and state directories (`DIR/state`) both go where --exec-log-dir says.
        let logDirectory = arguments[.execLogDirectory] ?? ExecAdapter.temporaryRoot()
        do {
            try FileManager.default.createDirectory(atPath: logDirectory, withIntermediateDirectories: true)
        } catch {
            throw .invalidValue(
                option: Option.execLogDirectory.name,
                value: logDirectory,
                expected: "a directory that can be created"
            )
        }
        return commands.map { name, command in
            ExecAdapter(
                name: name,
                command: command,
                killMode: killMode,
                timeoutNanos: UInt64(timeoutMillis) * 1_000_000,
                logDirectory: logDirectory,
                stateRoot: logDirectory + "/state",
                ttlSeconds: ttlSeconds
            )
        }
    }

    /// Starts each adapter's command once and checks its handshake, so that a command that does not
    /// exist or does not speak the protocol is a usage error before any journey runs.
    static func probe(_ adapters: [ExecAdapter]) throws(CLIError) {
        for adapter in adapters {
            if let problem = ExecStrategy.probe(adapter) {
                throw .invalidInput(
                    "\(Option.exec.name) \(adapter.name): \(problem). Check the command line and Docs/Protocol.md (the child's "
                        + "stderr is in \(adapter.logPath(worker: 0)))"
                )
            }
        }
    }

    /// One line per exec strategy: its protocol errors by kind and the first few, or none.
    static func execSummary(_ adapters: [ExecAdapter]) -> String {
        var text = ""
        for adapter in adapters {
            let tally = adapter.errorTally
            if adapter.unsupportedJourneys > 0 {
                text += "exec:\(adapter.name): \(adapter.unsupportedJourneys) signed-link journeys not supported by "
                text += "this program (it answered protocol 1, which carries no signing keys): not judged, "
                text += "counted as noLink\n"
            }
            guard tally.total > 0 else {
                text += "exec:\(adapter.name): 0 protocol errors (kill: \(adapter.killMode.rawValue))\n"
                continue
            }
            let kinds = ExecErrorTally.Kind.allCases.filter { tally.count($0) > 0 }
                .map { "\($0.rawValue) \(tally.count($0))" }.joined(separator: ", ")
            text += "exec:\(adapter.name): \(tally.total) protocol errors (\(kinds)); each failed its journey\n"
            for example in tally.examples {
                text += "  journey \(example.journey): \(example.kind.rawValue): \(example.message)\n"
            }
        }
        return text
    }
}

extension ExecStrategy {
    /// Starts `adapter`'s command, checks its hello and stops it; returns the problem, or nil.
    static func probe(_ adapter: ExecAdapter) -> String? {
        var context = StrategyContext(mix: .default)
        context.execAdapters[adapter.name] = adapter
        var strategy = ExecStrategy(name: adapter.name, probing: context)
        defer { strategy.finish() }
        return strategy.startChild(adapter: adapter)
    }

    /// A strategy that does not claim a worker number (the probe logs as worker 0).
    init(name: String, probing context: StrategyContext) {
        kind = .exec(name)
        adapter = context.execAdapters[name]
        worker = 0
        workerDirectory = ""
    }
}
