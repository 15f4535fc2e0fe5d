/// `run`'s verdict options (`--threshold`) and how its summary is printed (`--wide`).
extension RunCommand {
    static let thresholdOption = "--threshold"
    static let wideOption = "--wide"

    static let verdictOptions: [OptionSpec] = [
        OptionSpec(
            thresholdOption,
            value: "EXPR",
            help: "Also fail (exit 1) unless STRATEGY.METRIC OP VALUE holds, e.g. core.p99<2ms, "
                + "core.journeys_per_s>100000; METRIC one of "
                + Threshold.Metric.allCases.map(\.rawValue).joined(separator: ", ")
                + "; OP <, <=, >, >=, ==; latencies in ns, us, ms or s; repeatable. Always judged: "
                + "violations==0 for core and every exec: strategy (the peers are reported, not judged)."
        ),
        .flag(wideOption, help: "Print every outcome's count per strategy (summary.csv always has them)."),
    ]

    /// The `--threshold`s, parsed and checked against the run's `strategies`.
    static func thresholds(from arguments: ParsedArguments, strategies: [StrategyKind]) throws(CLIError) -> [Threshold]
    {
        var thresholds: [Threshold] = []
        for text in arguments.strings(thresholdOption) {
            let threshold: Threshold
            do {
                threshold = try Threshold.parse(text)
            } catch {
                throw .invalidInput("\(thresholdOption) \(error.message)")
            }
            let names = strategies.map(\.rawValue)
            guard names.contains(threshold.strategy) else {
                throw .invalidValue(
                    option: thresholdOption,
                    value: text,
                    expected: "a threshold on a strategy of this run (\(names.joined(separator: ", ")))"
                )
            }
            thresholds.append(threshold)
        }
        return thresholds
    }
}
