/// The options several commands share, each declared once here and read as `arguments[.out]`. A
/// command that describes one for its own use lists it as `Option.out.described("…")`.
extension Option where Value == Bool {
    /// Every command's `--help`.
    package static var help: Self { Flag("--help", help: "Show this help and exit.") }
    package static var quiet: Self { Flag("--quiet", help: "No progress output.") }
    /// run, merge, gate and capacity write report.html and summary.md unless given this.
    package static var noReport: Self { Flag("--no-report", help: "Do not write report.html and summary.md.") }
}

extension Option where Value == String? {
    /// Where a command writes (each command describes its own default).
    package static var out: Self { Option("--out", value: "DIR", as: .text, help: "Output directory.") }
    package static var baseline: Self {
        Option("--baseline", value: "DIR", as: .text, help: "Baseline report directories (comma-separated).")
    }
}

extension Option where Value == UInt64 {
    package static var seed: Self {
        Option("--seed", value: "S", default: 1, as: .unsigned, help: "Seed of the journey generator (default 1).")
    }
}

extension Option where Value == [StrategyKind] {
    package static var strategies: Self {
        Option(
            "--strategies",
            value: "LIST",
            default: StrategyKind.allCases,
            as: ValueParser { text throws(OptionValueError) in
                switch StrategyKind.parseList(text) {
                case .success(let kinds): return kinds
                case .failure(let error):
                    throw .item(
                        error.name,
                        expected: "a comma-separated list of "
                            + StrategyKind.allCases.map(\.rawValue).joined(separator: ", ")
                    )
                }
            },
            help: "Comma-separated strategies (default all)."
        )
    }
}

extension Option where Value == Double {
    package static var raceShare: Self {
        Option(
            "--race-share",
            value: "X",
            default: 0.1,
            as: .number(in: 0...1),
            help: "Share of journeys (every strategy) delivered from two threads (default 0.1; exec: in order)."
        )
    }
}

extension Option where Value == ScenarioMix {
    package static var mix: Self {
        Option(
            "--mix",
            value: "FILE",
            default: .default,
            as: ValueParser { path throws(OptionValueError) in
                do throws(ScenarioMixError) {
                    return try ScenarioMix.load(path: path)
                } catch {
                    throw .explained(error.message)
                }
            },
            help: "JSON scenario mix overriding the built-in default."
        )
    }
}

extension Option where Value == CoreStrategy.Faults {
    package static var coreFaults: Self {
        Option(
            "--core-faults",
            value: "LIST",
            default: [],
            as: ValueParser(CoreStrategy.Faults.parse),
            help: "Miswire core on purpose (comma-separated fault names) to see the checker catch it."
        )
    }
}

/// `exec:NAME` strategies (`run` and `conform`; Docs/Protocol.md).
extension Option where Value == [String] {
    package static var exec: Self {
        Option(
            "--exec",
            value: "NAME=COMMAND",
            repeatedAs: .text,
            help: "Drive strategy exec:NAME through COMMAND over the journey protocol (Docs/Protocol.md); repeatable."
        )
    }
}

extension Option where Value == ExecAdapter.KillMode? {
    package static var kill: Self {
        Option(
            "--kill",
            value: "MODE",
            as: .oneOf,
            help: "exec: process death as a 'message' (default: drop memory, keep the state directory) or a real "
                + "'signal'."
        )
    }
}

extension Option where Value == Int? {
    package static var execTimeoutMilliseconds: Self {
        Option(
            "--exec-timeout-ms",
            value: "MS",
            as: .integer(in: 1...3_600_000),
            help: "exec: a journey or handshake unanswered this long is hung; the child is restarted (default 2000)."
        )
    }
}

extension Option where Value == String? {
    package static var execLogDirectory: Self {
        Option(
            "--exec-log-dir",
            value: "DIR",
            as: .text,
            help: "exec: where children's stderr logs go (default: a new deeplink-exec-* temporary directory)."
        )
    }
}

extension Option where Value == String? {
    /// `--schedule` (`run` and `replay`); read with `--max-points` by ``ScheduleMode/parse(_:)``.
    package static var schedule: Self {
        Option(
            "--schedule",
            value: "MODE",
            as: .text,
            help: "How racing journeys interleave: pct[:depth=D[,steps=K]] (default pct:depth=3), random, "
                + "exhaustive (with --max-points), os (the OS decides; not reproducible) or sequential (no race: "
                + "the inputs in order, the baseline of what a race costs)."
        )
    }
}

extension Option where Value == Int? {
    package static var maxPoints: Self {
        Option(
            "--max-points",
            value: "N",
            as: .integer(in: Int.min...Int.max),
            help: "exhaustive: enumerate every interleaving of the first N schedule points (1...24)."
        )
    }
}
