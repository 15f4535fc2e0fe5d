extension ReplayCommand {
    /// `core`'s race as `replay` prints it: which logical thread passed which schedule point, in
    /// order, under the steps of the journey it raced (thread 0 delivered the first step's input,
    /// thread 1 the second's).
    static func interleaving(_ race: RaceRecord, journey: Journey) -> String {
        let step = max(0, race.raceStep)
        let first = step < journey.eventCount ? journey.describe(journey.events[step]) : "?"
        let second = step + 1 < journey.eventCount ? journey.describe(journey.events[step + 1]) : "?"
        var text = "interleaving (\(race.mode?.name ?? "?"), \(race.steps) schedule points"
        if race.interleavings > 0 { text += ", \(race.interleavings) interleavings explored" }
        text += "):\n  thread 0: step \(step) \(first)\n  thread 1: step \(step + 1) \(second)\n"
        var previous: UInt8?
        for (index, entry) in race.trace.enumerated() {
            let marker = previous != nil && previous != entry.thread ? "  <- switch" : ""
            text += "  #\(index + 1) T\(entry.thread) \(entry.pointName)\(marker)\n"
            previous = entry.thread
        }
        if race.steps > race.trace.count { text += "  … \(race.steps - race.trace.count) more points\n" }
        if let hang = race.hang { text += "  hung: \(hang.name)\n" }
        return text
    }
}
