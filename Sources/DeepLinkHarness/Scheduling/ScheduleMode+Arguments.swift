extension Option where Value == String? {
    /// `--schedule`, shared by `run` and `replay`; read with `--max-points` by ``ScheduleMode/parse(_:)``.
    package static var schedule: Self {
        Option(
            "--schedule",
            value: "MODE",
            as: .text,
            help: "How core's racing journeys interleave: pct[:depth=D[,steps=K]] (default pct:depth=3), random, "
                + "exhaustive (with --max-points) or os (the OS decides; not reproducible)."
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

extension ScheduleMode {
    /// The mode `--schedule` / `--max-points` ask for (``default`` when absent).
    static func parse(_ arguments: ParsedArguments) throws(CLIError) -> ScheduleMode {
        let maxPoints = arguments[.maxPoints]
        guard let text = arguments[.schedule] else {
            guard maxPoints == nil else { throw .invalidInput(ScheduleModeError.missingExhaustive.message) }
            return .default
        }
        switch parse(text, maxPoints: maxPoints) {
        case .success(let mode): return mode
        case .failure(let error): throw .invalidInput(error.message)
        }
    }
}
