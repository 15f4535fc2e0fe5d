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
    /// `sequential` with a planted concurrency fault, which only a race can show.
    case sequentialWithConcurrencyFault

    package var message: String {
        switch self {
        case .unknownMode(let text):
            "unknown schedule '\(text)'; pass os, random, sequential, pct[:depth=D[,steps=K]] or exhaustive"
        case .unexpectedOptions(let text):
            "schedule '\(text)' takes no options; only pct takes depth= and steps="
        case .badOption(let option):
            "bad pct option '\(option)'; pass depth=D (1...\(ScheduleMode.maximumDepth)) or steps=K "
                + "(1...\(ScheduleMode.maximumSteps))"
        case .missingMaxPoints:
            "\(Option.schedule.name) exhaustive needs \(Option.maxPoints.name) N "
                + "(1...\(ScheduleMode.maximumExhaustivePoints))"
        case .badMaxPoints(let value):
            "\(Option.maxPoints.name) \(value) is outside 1...\(ScheduleMode.maximumExhaustivePoints)"
        case .maxPointsWithoutExhaustive(let text):
            "\(Option.maxPoints.name) applies only to \(Option.schedule.name) exhaustive, not '\(text)'"
        case .missingExhaustive:
            "\(Option.maxPoints.name) applies only to \(Option.schedule.name) exhaustive; pass "
                + "\(Option.schedule.name) exhaustive too"
        case .sequentialWithConcurrencyFault:
            "\(Option.schedule.name) sequential delivers racing inputs in order, so a planted concurrency fault "
                + "cannot show; pass pct, random, exhaustive or os with it"
        }
    }
}
