/// `deeplink-bench replay`: regenerates one journey from `(seed, index)`, prints its event trace,
/// the oracle's expected outcome and each strategy's actual outcome.
package struct ReplayCommand: BenchCommand {
    package static let configuration = CommandConfiguration(
        name: "replay",
        abstract: "Re-run one journey by seed and index: its event trace, expected and actual outcomes.",
        usage:
            "replay --seed S --journey I [--strategies LIST] [--race-share X] [--schedule MODE [--max-points N]] "
            + "[--core-faults LIST] [--mix FILE] [--json]",
        discussion: "Pass the same --mix, --race-share, --schedule and --core-faults as the run whose "
            + "violations.csv row you replay; a racing core journey also prints its interleaving.",
        options: [
            Option.seed.described("Seed of the run."), journey, Option.strategies,
            Option.raceShare.described("The run's race share (default 0.1)."),
            Option.mix.described("The run's JSON scenario mix."),
            Option.coreFaults.described("The run's --core-faults."), json, Option.schedule, Option.maxPoints,
        ]
    )

    static let journey = Option("--journey", value: "I", as: .unsigned, help: "Journey index.")
    static let json = Flag("--json", help: "One JSON object instead of text.")

    package var seed: UInt64
    package var index: UInt64
    package var strategies: [StrategyKind]
    package var raceShare: Double
    package var mix: ScenarioMix
    package var json: Bool
    package var schedule: ScheduleMode = .default
    package var coreFaults: CoreStrategy.Faults = []

    package init(arguments: ParsedArguments) throws(CLIError) {
        guard arguments.positionals.isEmpty else { throw .unexpectedArgument(arguments.positionals[0]) }
        seed = try arguments.required(.seed)
        index = try arguments.required(Self.journey)
        strategies = arguments[.strategies]
        raceShare = arguments[.raceShare]
        mix = arguments[.mix]
        json = arguments[Self.json]
        schedule = try ScheduleMode.parse(arguments)
        coreFaults = arguments[.coreFaults]
    }

    /// The replayed journey and what each strategy did with it.
    package struct Replay: Sendable {
        package var journey: Journey
        package var expectation: Expectation
        package var actual: [(StrategyKind, JourneyOutcome, StrategyObservation)]
        /// `core`'s controlled race, when the journey raced.
        package var race: RaceRecord? = nil
    }

    /// Regenerates and re-runs the journey.
    package func replay() -> Replay {
        let generator = JourneyGenerator(seed: seed, mix: mix, raceShare: raceShare)
        let journey = generator.journey(at: index)
        let oracle = Oracle(mix: mix)
        let expectation = oracle.expect(journey)
        var context = StrategyContext(mix: mix)
        context.schedule = schedule
        context.coreFaults = coreFaults
        context.recordsRaceTraces = true
        var actual: [(StrategyKind, JourneyOutcome, StrategyObservation)] = []
        var race: RaceRecord?
        for kind in strategies {
            var strategy = kind.make(context: context)
            var observation = StrategyObservation()
            strategy.run(journey, into: &observation)
            if let core = strategy as? CoreStrategy, core.lastRaceRecord.mode != nil { race = core.lastRaceRecord }
            strategy.finish()
            let outcome = oracle.classify(
                observation,
                expectation: expectation,
                journey: journey,
                distinctions: strategy.distinctions
            )
            actual.append((kind, outcome, observation))
        }
        return Replay(journey: journey, expectation: expectation, actual: actual, race: race)
    }

    package mutating func run(io: CommandIO) throws -> Int32 {
        let replay = replay()
        io.out(json ? Self.json(replay) : Self.text(replay))
        return 0
    }

    static func routes(_ observation: StrategyObservation, journey: Journey) -> [String] {
        let recorded = min(observation.routeCount, StrategyObservation.capacity)
        return (0..<recorded).map { index in
            let step = Int(observation.routeSteps[index])
            let name = LinkCatalog.entry(observation.routeLinks[index]).name
            let kind = step < journey.eventCount ? journey.events[step].kind.name : "?"
            return "\(name) at step \(step) (\(kind))"
        }
    }

    /// The strategy's own account of what it did not route, and what the audit found.
    static func account(_ observation: StrategyObservation) -> [String] {
        var parts: [String] = []
        let reported = observation.reported
        if reported.contains(.rejected) { parts.append("rejected:" + (observation.rejection?.name ?? "?")) }
        if reported.contains(.organic) { parts.append("organic") }
        if reported.contains(.notSet) { parts.append("notSet") }
        if reported.contains(.expired) { parts.append("expired") }
        if reported.contains(.superseded) { parts.append("superseded") }
        if reported.contains(.crashWindow) { parts.append("died in the crash window") }
        switch observation.auditFinding {
        case .strandedCapture: parts.append("audit: a capture was left stranded in the queue")
        case .unknownLink: parts.append("audit: routed a link the catalog does not know")
        case .childFailed: parts.append("exec: the child crashed or broke the protocol")
        case .childHung: parts.append("exec: the child did not finish in time")
        case .attributionLost: parts.append("audit: routed a referrer's link without its campaign")
        case .scheduleHung: parts.append("schedule: the race deadlocked or livelocked (see the interleaving)")
        case .unsupported: parts.append("exec: not supported by this program (protocol 1 has no signing keys)")
        case nil: break
        }
        return parts
    }

    static func text(_ replay: Replay) -> String {
        let journey = replay.journey
        return "journey \(journey.index) of seed \(journey.seed): \(journey.scenario.name)\n" + detail(replay)
    }

    /// Everything `replay` prints after its first line: links, world, numbered events, the
    /// expected outcome and each strategy's (also `conform`'s account of a failed rule).
    static func detail(_ replay: Replay) -> String {
        let journey = replay.journey
        var text = ""
        if journey.linkCount > 0 || journey.scenario.platform == .android {
            var links: [String] = []
            for slot in 0..<max(1, Int(journey.linkCount)) {
                let entry = LinkCatalog.entry(journey.link(slot: UInt8(slot)))
                // What the app receives: Play's referrer on Android, the URL on iOS and warm opens.
                let received = journey.scenario.platform == .android ? entry.referrer : entry.url
                links.append("\(entry.name) (\(received))")
            }
            text += "links: " + links.joined(separator: ", ") + "\n"
        }
        let world = journey.worldDescription
        if !world.isEmpty { text += "world: \(world)\n" }
        text += "events:\n"
        for step in 0..<journey.eventCount {
            let event = journey.events[step]
            let number = String(step)
            let time = String(event.atSeconds)
            text += String(repeating: " ", count: max(0, 4 - number.count)) + number
            text +=
                String(repeating: " ", count: max(0, 10 - time.count)) + time + "s  " + journey.describe(event) + "\n"
        }
        text += "expected: \(replay.expectation.outcome.name)"
        if replay.expectation.routeStep >= 0 { text += " (oracle routes at step \(replay.expectation.routeStep))" }
        text += "\n"
        for (kind, outcome, observation) in replay.actual {
            let name = kind.rawValue + ":"
            text += "  " + name + String(repeating: " ", count: max(1, 13 - name.count)) + outcome.name
            let routes = routes(observation, journey: journey)
            if !routes.isEmpty { text += "  routed " + routes.joined(separator: ", ") }
            let account = account(observation)
            if !account.isEmpty { text += "  reported " + account.joined(separator: ", ") }
            text += "\n"
        }
        if let race = replay.race { text += Self.interleaving(race, journey: journey) }
        return text
    }

    static func json(_ replay: Replay) -> String {
        let journey = replay.journey
        var events: [String] = []
        for step in 0..<journey.eventCount {
            let event = journey.events[step]
            events.append(
                "{\"step\":\(step),\"at_s\":\(event.atSeconds),\"event\":\(JSONString.quoted(journey.describe(event)))}"
            )
        }
        var actual: [String] = []
        for (kind, outcome, observation) in replay.actual {
            let routes = routes(observation, journey: journey).map(JSONString.quoted).joined(separator: ",")
            let account = account(observation).map(JSONString.quoted).joined(separator: ",")
            actual.append(
                "\(JSONString.quoted(kind.rawValue)):{\"outcome\":\(JSONString.quoted(outcome.name)),"
                    + "\"routes\":[\(routes)],\"reported\":[\(account)]}"
            )
        }
        return "{\"seed\":\(journey.seed),\"journey\":\(journey.index),"
            + "\"scenario_class\":\(JSONString.quoted(journey.scenario.name)),"
            + "\"world\":\(JSONString.quoted(journey.worldDescription)),"
            + "\"trace\":\(JSONString.quoted(journey.trace)),\"events\":[\(events.joined(separator: ","))],"
            + "\"expected\":\(JSONString.quoted(replay.expectation.outcome.name)),"
            + "\"actual\":{\(actual.joined(separator: ","))}}\n"
    }
}
