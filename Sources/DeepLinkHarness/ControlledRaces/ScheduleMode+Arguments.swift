extension ScheduleMode {
    /// The mode `--schedule` / `--max-points` ask for (``default`` when absent); `sequential` is
    /// refused with a planted concurrency fault (`--core-faults`).
    static func parse(_ arguments: ParsedArguments) throws(CLIError) -> ScheduleMode {
        let maxPoints = arguments[.maxPoints]
        guard let text = arguments[.schedule] else {
            guard maxPoints == nil else { throw .invalidInput(ScheduleModeError.missingExhaustive.message) }
            return .default
        }
        switch parse(text, maxPoints: maxPoints) {
        case .success(.sequential) where !arguments[.coreFaults].isDisjoint(with: CoreStrategy.Faults.concurrency):
            throw .invalidInput(ScheduleModeError.sequentialWithConcurrencyFault.message)
        case .success(let mode): return mode
        case .failure(let error): throw .invalidInput(error.message)
        }
    }
}
