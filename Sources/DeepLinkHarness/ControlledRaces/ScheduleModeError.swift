/// Why a `--schedule` value was refused; ``message`` says what was found and what to pass.
///
/// Thread safety: a value type; `Sendable`.
package enum ScheduleModeError: Error, Sendable, Equatable {
    case unknownMode(String)
    case unexpectedOptions(String)
    case badOption(String)
    case missingMaxPoints
    case badMaxPoints(Int)
    case maxPointsWithoutExhaustive(String)
    case missingExhaustive

    package var message: String {
        switch self {
        case .unknownMode(let text):
            "unknown schedule '\(text)'; pass os, random, pct[:depth=D[,steps=K]] or exhaustive"
        case .unexpectedOptions(let text):
            "schedule '\(text)' takes no options; only pct takes depth= and steps="
        case .badOption(let option):
            "bad pct option '\(option)'; pass depth=D (1...\(ScheduleMode.maximumDepth)) or steps=K "
                + "(1...\(ScheduleMode.maximumSteps))"
        case .missingMaxPoints:
            "--schedule exhaustive needs --max-points N (1...\(ScheduleMode.maximumExhaustivePoints))"
        case .badMaxPoints(let value):
            "--max-points \(value) is outside 1...\(ScheduleMode.maximumExhaustivePoints)"
        case .maxPointsWithoutExhaustive(let text):
            "--max-points applies only to --schedule exhaustive, not '\(text)'"
        case .missingExhaustive:
            "--max-points applies only to --schedule exhaustive; pass --schedule exhaustive too"
        }
    }
}
