/// `run`'s time-based runs (`--duration`) and warm-up (`--warmup`).
extension RunCommand {
    static let durationOption = "--duration"
    static let warmupOption = "--warmup"
    /// Warm-up journeys per worker thread by default: a few milliseconds of work for `core`.
    public static let defaultWarmupJourneys = 1_000
    /// The longest `--duration`: a week.
    static let maximumDurationSeconds = 604_800.0
    /// The cap on a closed-loop `--duration` run's journeys: the most `--journeys` accepts.
    static let maximumJourneys = 10_000_000_000

    static let durationOptions: [OptionSpec] = [
        OptionSpec(
            durationOption,
            value: "SECONDS",
            help: "Run for this long instead of a number of journeys (closed loop: workers claim journeys until "
                + "the time is up; with --rate: rate x SECONDS arrivals). Not with --journeys or --shard."
        ),
        OptionSpec(
            warmupOption,
            value: "N",
            help: "Journeys each worker thread first runs through fresh strategies, counted nowhere "
                + "(default \(defaultWarmupJourneys); another seed, none racing; exec: strategies are not warmed)."
        ),
    ]

    /// `--duration` in nanoseconds, validated against `--journeys` and `--shard`; nil when absent.
    static func duration(from arguments: ParsedArguments) throws(CLIError) -> UInt64? {
        guard arguments.values[durationOption] != nil else { return nil }
        guard let seconds = try? arguments.double(durationOption, in: 0.001...maximumDurationSeconds) else {
            throw .invalidValue(
                option: durationOption,
                value: arguments.values[durationOption] ?? "",
                expected: "seconds, a number from 0.001 to \(Int(maximumDurationSeconds)) (a week)"
            )
        }
        guard arguments.values["--journeys"] == nil else {
            throw .invalidInput("\(durationOption) and --journeys both set the run's length: give one of them")
        }
        guard arguments.values["--shard"] == nil else {
            throw .invalidInput(
                "\(durationOption) cannot be sharded: shards split a fixed number of journeys (give --journeys)"
            )
        }
        return UInt64((seconds * 1e9).rounded())
    }

    /// Applies `--duration` to `configuration`: a closed-loop run's journeys become the cap, an
    /// open-loop run's the arrivals due in that time (at least one).
    static func apply(durationNanos: UInt64, to configuration: inout RunConfiguration) {
        if let openLoop = configuration.openLoop {
            let arrivals = (openLoop.ratePerSecond * Double(durationNanos) / 1e9).rounded(.up)
            configuration.journeys = UInt64(min(max(arrivals, 1), Double(maximumJourneys)))
        } else {
            configuration.journeys = UInt64(maximumJourneys)
            configuration.durationNanos = durationNanos
        }
    }
}
