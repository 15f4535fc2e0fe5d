/// `run`'s time-based runs (`--duration`) and warm-up (`--warmup`).
extension RunCommand {
    /// Warm-up journeys per worker thread by default: a few milliseconds of work for `core`.
    package static let defaultWarmupJourneys = 1_000
    /// The longest `--duration`: a week.
    static let maximumDurationSeconds = 604_800.0
    /// The cap on a closed-loop `--duration` run's journeys: the most `--journeys` accepts.
    static let maximumJourneys = 10_000_000_000

    static let duration = Option(
        "--duration",
        value: "SECONDS",
        as: .number(
            in: 0.001...maximumDurationSeconds,
            expected: "seconds, a number from 0.001 to \(Int(maximumDurationSeconds)) (a week)"
        ),
        help: "Run for this long instead of a number of journeys (closed loop: workers claim journeys until "
            + "the time is up; with --rate: rate x SECONDS arrivals). Not with --journeys or --shard."
    )
    static let warmup = Option(
        "--warmup",
        value: "N",
        default: defaultWarmupJourneys,
        as: .integer(in: 0...10_000_000),
        help: "Journeys each worker thread first runs through fresh strategies, counted nowhere "
            + "(default \(defaultWarmupJourneys); another seed, none racing; exec: strategies are not warmed)."
    )

    /// `--duration` in nanoseconds, validated against `--journeys` and `--shard`; nil when absent.
    static func duration(from arguments: ParsedArguments) throws(CLIError) -> UInt64? {
        guard let seconds = arguments[duration] else { return nil }
        guard !arguments.contains(journeys) else {
            throw .invalidInput("\(duration.name) and \(journeys.name) both set the run's length: give one of them")
        }
        guard !arguments.contains(shard) else {
            throw .invalidInput(
                "\(duration.name) cannot be sharded: shards split a fixed number of journeys (give \(journeys.name))"
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
