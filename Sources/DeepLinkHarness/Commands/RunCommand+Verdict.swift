/// `run`'s verdict options (`--threshold`) and how its summary is printed (`--wide`).
extension RunCommand {
    static let threshold = Option(
        "--threshold",
        value: "EXPR",
        repeatedAs: ValueParser(Threshold.parse, message: { $0.message }),
        help: "Also fail (exit 1) unless STRATEGY.METRIC OP VALUE holds, e.g. core.p99<2ms, "
            + "core.journeys_per_s>100000; METRIC one of "
            + Threshold.Metric.allCases.map(\.rawValue).joined(separator: ", ")
            + "; OP <, <=, >, >=, ==; latencies in ns, us, ms or s; repeatable. Always judged: "
            + "violations==0 for core and every exec: strategy (the peers are reported, not judged)."
    )
    static let wide = Flag("--wide", help: "Print every outcome's count per strategy (summary.csv always has them).")

    /// The `--threshold`s, parsed and checked against the run's `strategies`.
    static func thresholds(from arguments: ParsedArguments, strategies: [StrategyKind]) throws(CLIError) -> [Threshold]
    {
        let names = strategies.map(\.rawValue)
        for (threshold, text) in zip(arguments[Self.threshold], arguments.texts(Self.threshold))
        where !names.contains(threshold.strategy) {
            throw .invalidValue(
                option: Self.threshold.name,
                value: text,
                expected: "a threshold on a strategy of this run (\(names.joined(separator: ", ")))"
            )
        }
        return arguments[Self.threshold]
    }
}
