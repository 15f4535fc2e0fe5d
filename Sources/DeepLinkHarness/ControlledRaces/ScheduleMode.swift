/// How a racing journey's logical threads are interleaved (`--schedule`, Docs/Scheduling.md).
///
/// Thread safety: a value type; `Sendable`.
package enum ScheduleMode: Sendable, Equatable {
    /// The operating system decides (today's race partner; not reproducible).
    case os
    /// A seeded random walk: at every schedule point, any runnable logical thread runs next.
    case random
    /// Probabilistic concurrency testing (Burckhardt et al., ASPLOS 2010): random distinct
    /// priorities and `depth - 1` priority change points over the first `steps` schedule points;
    /// the highest-priority runnable thread runs. Finds a bug of depth `depth` in a race of `n`
    /// threads and `steps` points with probability at least `1 / (n * steps^(depth - 1))`.
    case pct(depth: Int, steps: Int)
    /// No race: the racing inputs are delivered one after the other, in order, on the worker's
    /// thread, with no schedule points. Not a test of concurrency: the baseline that says what a
    /// racing journey's inputs cost without the race (Docs/Scheduling.md, *What a race costs*).
    case sequential
    /// Every interleaving of the first `maxPoints` schedule points (depth-first, each execution
    /// replayed from its prefix of choices); after them the running thread keeps running.
    case exhaustive(maxPoints: Int)

    /// The default for racing journeys: `pct:depth=3`.
    package static let `default` = ScheduleMode.pct(depth: 3, steps: defaultPCTSteps)
    /// PCT's step bound when `steps=` is not given: about the schedule points of a long racing
    /// journey of the default mix (a burst of captures against a signal): over seed 1's first 72
    /// racing journeys `replay` counts a median of 75 points, a 90th percentile of 148, at most 160.
    package static let defaultPCTSteps = 144
    /// The largest `depth`, `steps` and `maxPoints` accepted.
    package static let maximumDepth = 16
    package static let maximumSteps = 1_000_000
    package static let maximumExhaustivePoints = 24

    /// Whether the harness's scheduler (not the OS) decides between the race's threads
    /// (`sequential` has no race to decide).
    package var isControlled: Bool { self != .os && self != .sequential }

    /// The spelling `--schedule` accepts and reports print.
    package var name: String {
        switch self {
        case .os: "os"
        case .random: "random"
        case .sequential: "sequential"
        case .pct(let depth, let steps):
            steps == Self.defaultPCTSteps ? "pct:depth=\(depth)" : "pct:depth=\(depth),steps=\(steps)"
        case .exhaustive(let maxPoints): "exhaustive:max-points=\(maxPoints)"
        }
    }

    /// Parses `os`, `random`, `sequential`, `pct`, `pct:depth=D`, `pct:depth=D,steps=K` or
    /// `exhaustive` (`maxPoints` comes from `--max-points`). Returns what was wrong on failure.
    package static func parse(_ text: String, maxPoints: Int?) -> Result<ScheduleMode, ScheduleModeError> {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        let name = parts.first ?? ""
        let options = parts.count > 1 ? parts[1] : ""
        switch name {
        case "os", "random", "sequential":
            guard options.isEmpty else { return .failure(.unexpectedOptions(text)) }
            if maxPoints != nil { return .failure(.maxPointsWithoutExhaustive(text)) }
            return .success(name == "os" ? .os : name == "random" ? .random : .sequential)
        case "pct":
            if maxPoints != nil { return .failure(.maxPointsWithoutExhaustive(text)) }
            var depth = 3
            var steps = defaultPCTSteps
            for option in options.split(separator: ",", omittingEmptySubsequences: false) where !options.isEmpty {
                let pair = option.split(separator: "=", maxSplits: 1).map(String.init)
                guard pair.count == 2, let value = Int(pair[1]) else { return .failure(.badOption(String(option))) }
                switch pair[0] {
                case "depth":
                    guard (1...maximumDepth).contains(value) else { return .failure(.badOption(String(option))) }
                    depth = value
                case "steps":
                    guard (1...maximumSteps).contains(value) else { return .failure(.badOption(String(option))) }
                    steps = value
                default: return .failure(.badOption(String(option)))
                }
            }
            return .success(.pct(depth: depth, steps: steps))
        case "exhaustive":
            guard options.isEmpty else { return .failure(.unexpectedOptions(text)) }
            guard let maxPoints else { return .failure(.missingMaxPoints) }
            guard (1...maximumExhaustivePoints).contains(maxPoints) else { return .failure(.badMaxPoints(maxPoints)) }
            return .success(.exhaustive(maxPoints: maxPoints))
        default:
            return .failure(.unknownMode(text))
        }
    }
}
