extension ScheduleMode {
    /// `--schedule` and `--max-points`, shared by `run` and `replay`.
    static let options: [OptionSpec] = [
        OptionSpec(
            "--schedule",
            value: "MODE",
            help: "How core's racing journeys interleave: pct[:depth=D[,steps=K]] (default pct:depth=3), random, "
                + "exhaustive (with --max-points) or os (the OS decides; not reproducible)."
        ),
        OptionSpec(
            "--max-points",
            value: "N",
            help: "exhaustive: enumerate every interleaving of the first N schedule points (1...24)."
        ),
    ]

    /// The mode `--schedule` / `--max-points` ask for (``default`` when absent).
    static func parse(_ arguments: ParsedArguments) throws(CLIError) -> ScheduleMode {
        let maxPoints = try arguments.integer("--max-points", in: Int.min...Int.max)
        guard let text = arguments.string("--schedule") else {
            guard maxPoints == nil else { throw .invalidInput(ScheduleModeError.missingExhaustive.message) }
            return .default
        }
        switch parse(text, maxPoints: maxPoints) {
        case .success(let mode): return mode
        case .failure(let error): throw .invalidInput(error.message)
        }
    }
}
