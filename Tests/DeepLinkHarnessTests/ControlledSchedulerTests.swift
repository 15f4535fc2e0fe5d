import DeepLinkCore
import DeepLinkHarness
import Testing

/// The controlled scheduler (Docs/Scheduling.md): exhaustive exploration proves exactly-once for
/// every interleaving of small races; PCT reports each planted concurrency fault on every run
/// with the same seed, and a violating journey replays to the same violation.
///
/// Serialized: two tests read the process-wide `RaceDesk.servedRaces` before and after a run, and
/// one of them expects no served race on fibers, which the other's run would add to.
@Suite(.serialized) struct ControlledSchedulerTests {
    /// Counts routes by link id.
    final class CountingRouter: Router {
        let routes = Locked([UInt64: Int]())
        func route(_ link: PendingLink) -> RouteResult {
            routes.withLock { $0[link.id, default: 0] += 1 }
            return .handled
        }
        var counts: [UInt64: Int] { routes.withLock { $0 } }
    }

    struct Scenario {
        let resolver: LinkResolver
        let router = CountingRouter()
        let store: InMemoryHandoffStore

        init() {
            let process = SimulatedProcess()
            store = InMemoryHandoffStore(process: process)
            resolver = LinkResolver(
                configuration: .init(policy: ExampleApp.policy),
                store: store,
                router: router,
                clock: ManualClock(nanos: 1_000),
                process: process
            )
        }
    }

    static func link(_ path: String, id: UInt64) -> PendingLink {
        PendingLink(link: DeepLink(validated: path)!, source: .appClip, capturedAtNanos: 500, id: id)
    }

    /// Explores `build`'s race and expects exactly one route of link 1 in every interleaving.
    static func expectExactlyOnce(
        maxPoints: Int,
        plants faults: [ConcurrencyFault] = [],
        _ build: @escaping () -> Scenario,
        inputs: [InterleavingExplorer.Input]
    ) -> (explored: Int, checked: Int, wrong: Int) {
        var current: Scenario?
        var checked = 0
        var wrong = 0
        let explored = InterleavingExplorer.explore(
            maxPoints: maxPoints,
            plants: faults,
            scenario: {
                let scenario = build()
                current = scenario
                return (scenario.resolver, inputs)
            },
            check: { execution, hang in
                #expect(execution == checked)
                checked += 1
                let counts = current?.router.counts ?? [:]
                if hang != nil || counts[1, default: 0] != 1 || counts.count != 1
                    || current?.resolver.queuedCount != 0
                {
                    wrong += 1
                }
            }
        )
        return (explored, checked, wrong)
    }

    @Test func everyInterleavingOfACaptureRacingALoginRoutesOnce() {
        let result = Self.expectExactlyOnce(
            maxPoints: 12,
            {
                let scenario = Scenario()
                scenario.resolver.signal(.appReady)
                return scenario
            },
            inputs: [.captures("/orders/7", id: 1, copies: 1), .signal(.loggedIn)]
        )
        #expect(result.explored > 1)
        #expect(result.explored == result.checked)
        #expect(result.wrong == 0, "\(result.wrong) of \(result.explored) interleavings did not route exactly once")
    }

    /// Three threads: the costliest enumeration here. Under a sanitizer it covers the first 5 points
    /// (the plain run has already enumerated all 7; the sanitizer needs the threads, not every order).
    @Test func everyInterleavingOfTwoCapturesRacingADrainRoutesOnce() {
        let result = Self.expectExactlyOnce(
            maxPoints: Sanitizer.isActive ? 5 : 7,
            {
                let scenario = Scenario()
                scenario.resolver.signal(.appReady)
                return scenario
            },
            inputs: [
                .captures("/orders/7", id: 1, copies: 1), .captures("/orders/7", id: 1, copies: 1), .signal(.loggedIn),
            ]
        )
        #expect(result.explored > 1)
        #expect(result.explored == result.checked)
        #expect(result.wrong == 0, "\(result.wrong) of \(result.explored) interleavings did not route exactly once")
    }

    @Test func everyInterleavingOfARelaunchRacingACaptureRoutesOnce() {
        let link = Self.link("/product/42", id: 1)
        let result = Self.expectExactlyOnce(
            maxPoints: 12,
            {
                let scenario = Scenario()
                try? scenario.store.save(link)
                scenario.resolver.signal(.appReady)
                return scenario
            },
            inputs: [.launch, .captures("/product/42", id: 1, copies: 1)]
        )
        #expect(result.explored > 1)
        #expect(result.explored == result.checked)
        #expect(result.wrong == 0, "\(result.wrong) of \(result.explored) interleavings did not route exactly once")
    }

    /// A racing burst captures through the public call on its own thread: a URL the example app's
    /// validator refuses is never routed, in any interleaving with the login that would open the gate.
    @Test func everyInterleavingOfARefusedCaptureRacingALoginRoutesNothing() {
        var executions = 0
        var routed = 0
        var current: Scenario?
        let explored = InterleavingExplorer.explore(
            maxPoints: 12,
            scenario: {
                let scenario = Scenario()
                scenario.resolver.signal(.appReady)
                current = scenario
                return (scenario.resolver, [.captures("/orders/../7", id: 1, copies: 2), .signal(.loggedIn)])
            },
            check: { _, _ in
                executions += 1
                routed += current?.router.counts.count ?? 0
            }
        )
        #expect(explored > 0)
        #expect(executions == explored)
        #expect(routed == 0)
    }

    /// The same exploration finds the planted fault: some interleaving routes the link twice.
    @Test func exhaustiveExplorationFindsAForgottenRoutedRing() {
        let link = Self.link("/product/42", id: 1)
        let result = Self.expectExactlyOnce(
            maxPoints: 12,
            plants: [.forgetRoutedRing],
            {
                let scenario = Scenario()
                try? scenario.store.save(link)
                scenario.resolver.signal(.appReady)
                return scenario
            },
            inputs: [.launch, .captures("/product/42", id: 1, copies: 1)]
        )
        #expect(result.wrong > 0, "no interleaving of \(result.explored) showed the planted fault")
    }

    /// A router that notes whether its resolver's process passed schedule points while it routed.
    final class WatchingRouter: Router {
        let seen = Locked([SimulatedProcess.Run]())
        let process: SimulatedProcess
        init(process: SimulatedProcess) { self.process = process }
        func route(_ link: PendingLink) -> RouteResult {
            let run = process.run
            seen.withLock { $0.append(run) }
            return .handled
        }
    }

    /// Only the race's resolver passes points, and only while the race runs: outside it the
    /// resolver runs its internals without them (the code from before schedule points).
    @Test func aRaceSchedulesItsResolverOnlyWhileItRuns() {
        let process = SimulatedProcess()
        let router = WatchingRouter(process: process)
        let resolver = LinkResolver(
            configuration: .init(policy: ExampleApp.policy),
            store: InMemoryHandoffStore(process: process),
            router: router,
            clock: ManualClock(nanos: 1_000),
            process: process
        )
        #expect(process.run == .unscheduled)
        var hangs = 0
        let explored = InterleavingExplorer.explore(
            maxPoints: 2,
            scenario: { (resolver, [.captures("/product/42", id: 1, copies: 1), .signal(.appReady)]) },
            check: { _, hang in if hang != nil { hangs += 1 } }
        )
        #expect(explored > 0)
        #expect(hangs == 0)
        #expect(process.run == .unscheduled)
        let seen = router.seen.withLock { $0 }
        #expect(seen == [.scheduled], "the route ran under the race: \(seen)")
        resolver.capture(Self.link("/product/43", id: 2))
        #expect(router.seen.withLock { $0 } == [.scheduled, .unscheduled])
    }

    /// What a race reached and interleaved is the journey's: `pct` reaches the queue, the work
    /// counter, the lock and the store; `os` (no scheduler watching) reaches nothing.
    @Test func racesReportTheirSchedulePointsAndInterleavedPairs() {
        for schedule in [ScheduleMode.default, .os] {
            var context = StrategyContext(mix: .default)
            context.schedule = schedule
            var core = CoreStrategy(context: context)
            let generator = JourneyGenerator(seed: 11, raceShare: 1)
            var union = ScheduleCoverage()
            var raced = 0
            for index in 0..<UInt64(40) {
                var observation = StrategyObservation()
                core.run(generator.journey(at: index), into: &observation)
                if observation.raceStep >= 0 { raced += 1 }
                union.formUnion(observation.schedule)
            }
            core.finish()
            #expect(raced > 0)
            var counts = CoverageCounts()
            counts.count(schedule: union)
            let reached = Set(
                ScheduleCoverage.pointNames.indices.filter { counts.points[$0] > 0 }.map {
                    ScheduleCoverage.pointNames[$0]
                }
            )
            let pairs = counts.pairs.reduce(0, +)
            if schedule == .os {
                #expect(reached.isEmpty && pairs == 0, "os: \(reached)")
            } else {
                for point in ["queue_claim", "queue_publish", "work_increment", "lock_acquire", "store_save"] {
                    #expect(reached.contains(point), "pct never reached \(point): \(reached.sorted())")
                }
                #expect(pairs > 0)
            }
        }
    }

    /// Runs racing journeys through `core` under `schedule` and counts outcomes by name.
    static func outcomes(faults: CoreStrategy.Faults, schedule: ScheduleMode, journeys: UInt64) -> [String: Int] {
        var context = StrategyContext(mix: .default)
        context.schedule = schedule
        var core = CoreStrategy(context: context, faults: faults)
        let generator = JourneyGenerator(seed: 11, raceShare: 1)
        let oracle = Oracle()
        var counts: [String: Int] = [:]
        for index in 0..<journeys {
            let journey = generator.journey(at: index)
            var observation = StrategyObservation()
            core.run(journey, into: &observation)
            let outcome = oracle.classify(observation, expectation: oracle.expect(journey), journey: journey)
            counts[outcome.name, default: 0] += 1
        }
        core.finish()
        return counts
    }

    static var journeys: UInt64 { Sanitizer.isActive ? 300 : 2_000 }

    /// Whether `fault` is expected to show within ``journeys``: the planted queue fault loses about
    /// one racing journey in a thousand (a consumer must read a slot between its claim and its
    /// publish), so the sanitizer runs' 300 journeys on OS threads need not meet it; the plain run
    /// (2,000 journeys) must.
    static func shows(_ fault: CoreStrategy.Faults) -> Bool {
        !(Sanitizer.isActive && fault == .consumerReadsUnpublished)
    }

    @Test func correctCoreHasNoViolationsUnderPCT() {
        let counts = Self.outcomes(faults: [], schedule: .default, journeys: Self.journeys)
        for violation in JourneyOutcome.violations {
            #expect(counts[violation.name, default: 0] == 0, "core \(violation.name) under pct: \(counts)")
        }
        #expect(counts["routed", default: 0] > 0)
    }

    @Test(arguments: CoreStrategy.Faults.concurrencyCatalogue.map(\.name))
    func concurrencyFaultIsReportedOnEveryRunWithTheSameSeed(fault name: String) throws {
        let entry = try #require(CoreStrategy.Faults.concurrencyCatalogue.first { $0.name == name })
        let first = Self.outcomes(faults: entry.fault, schedule: .default, journeys: Self.journeys)
        let second = Self.outcomes(faults: entry.fault, schedule: .default, journeys: Self.journeys)
        if Self.shows(entry.fault) {
            #expect(first[entry.expected.name, default: 0] > 0, "\(name): \(entry.expected.name) not flagged: \(first)")
        }
        #expect(first == second, "\(name): two runs of one seed differ: \(first) vs \(second)")
    }

    @Test(arguments: CoreStrategy.Faults.concurrencyCatalogue.map(\.name))
    func concurrencyViolationReplaysToTheSameViolation(fault name: String) throws {
        let entry = try #require(CoreStrategy.Faults.concurrencyCatalogue.first { $0.name == name })
        var context = StrategyContext(mix: .default)
        context.schedule = .default
        var core = CoreStrategy(context: context, faults: entry.fault)
        let generator = JourneyGenerator(seed: 11, raceShare: 1)
        let oracle = Oracle()
        var violating: UInt64?
        for index in 0..<Self.journeys where violating == nil {
            let journey = generator.journey(at: index)
            var observation = StrategyObservation()
            core.run(journey, into: &observation)
            if oracle.classify(observation, expectation: oracle.expect(journey), journey: journey) == entry.expected {
                violating = index
            }
        }
        core.finish()
        guard Self.shows(entry.fault) else { return }
        let index = try #require(violating, "\(name): no journey showed \(entry.expected.name)")
        var texts: [String] = []
        for _ in 0..<2 {
            var command = try ReplayCommand(
                arguments: ArgumentParser.parse(
                    [
                        "--seed", "11", "--journey", String(index), "--strategies", "core", "--race-share", "1",
                        "--schedule", "pct", "--core-faults", name,
                    ],
                    options: ReplayCommand.configuration.options
                )
            )
            var text = ""
            #expect(try command.run(io: CommandIO(stdout: { text += $0 }, stderr: { _ in })) == 0)
            texts.append(text)
        }
        #expect(texts[0].contains("core:        \(entry.expected.name)"), "\(texts[0])")
        #expect(texts[0].contains("interleaving (pct:depth=3"))
        #expect(texts[0] == texts[1])
    }

    /// Paired workers partner each other's OS-thread races (`RaceDesk`), an odd one out has a
    /// partner thread, and on fibers no race needs another thread: a race's interleaving comes from
    /// its seed alone, so 1, 2 and 3 workers judge every journey alike, planted fault and all.
    @Test func pairedWorkersJudgeRacesAsOneWorkerDoes() throws {
        let entry = try #require(CoreStrategy.Faults.concurrencyCatalogue.first)
        func run(threads: Int) -> StrategyTally {
            // Workers claim journeys 512 at a time: past 1,024 both of a pair have some.
            var configuration = RunConfiguration(
                journeys: 1_100,
                seed: 5,
                threads: threads,
                strategies: [.core],
                raceShare: 1
            )
            configuration.coreFaults = entry.fault
            return Runner.run(configuration).tallies[0]
        }
        let servedBefore = RaceDesk.servedRaces
        let one = run(threads: 1)
        #expect(one.total(entry.expected) > 0, "\(entry.name) not flagged")
        // The sanitizer run checks the pairing (two workers) alone, at its 5-15x cost.
        for threads in Sanitizer.isActive ? [2] : [2, 3] {
            let paired = run(threads: threads)
            #expect(paired.counts == one.counts, "\(threads) workers")
            #expect(paired.violations == one.violations, "\(threads) workers")
        }
        // On fibers (RaceFibers) a controlled race needs no second OS thread and asks no desk.
        #expect((RaceDesk.servedRaces > servedBefore) == !RaceFibers.available)
    }

    /// `--schedule os` with a worker per core: no core is spare for a partner thread of a race's
    /// own (woken onto a core another worker held, it cost ~1.6 ms per racing journey), so the
    /// paired workers partner each other's races, unscheduled, and still judge them correct.
    @Test func freeRacesWithoutASpareCoreArePartneredByThePairedWorker() {
        let threads = max(2, ResourceUsage.coreCount())
        let servedBefore = RaceDesk.servedRaces
        var configuration = RunConfiguration(
            journeys: UInt64(600 * threads),
            seed: 9,
            threads: threads,
            strategies: [.core],
            raceShare: 1
        )
        configuration.schedule = .os
        let tally = Runner.run(configuration).tallies[0]
        #expect(tally.racingJourneys > 0)
        #expect(tally.violations.isEmpty)
        // Most races find the peer between journeys; one it does not answer in time gets a thread.
        #expect(RaceDesk.servedRaces - servedBefore >= tally.racingJourneys / 4)
    }

    @Test func scheduleModesParseAndRefuseBadInput() {
        #expect(ScheduleMode.parse("pct", maxPoints: nil) == .success(.default))
        #expect(ScheduleMode.parse("pct:depth=5,steps=50", maxPoints: nil) == .success(.pct(depth: 5, steps: 50)))
        #expect(ScheduleMode.parse("random", maxPoints: nil) == .success(.random))
        #expect(ScheduleMode.parse("os", maxPoints: nil) == .success(.os))
        #expect(ScheduleMode.parse("exhaustive", maxPoints: 8) == .success(.exhaustive(maxPoints: 8)))
        #expect(ScheduleMode.parse("exhaustive", maxPoints: nil) == .failure(.missingMaxPoints))
        #expect(ScheduleMode.parse("exhaustive", maxPoints: 99) == .failure(.badMaxPoints(99)))
        #expect(ScheduleMode.parse("pct:depth=0", maxPoints: nil) == .failure(.badOption("depth=0")))
        #expect(ScheduleMode.parse("pct:width=2", maxPoints: nil) == .failure(.badOption("width=2")))
        #expect(ScheduleMode.parse("fifo", maxPoints: nil) == .failure(.unknownMode("fifo")))
        #expect(ScheduleMode.parse("random", maxPoints: 3) == .failure(.maxPointsWithoutExhaustive("random")))
        #expect(ScheduleMode.parse("sequential", maxPoints: nil) == .success(.sequential))
        #expect(
            ScheduleMode.parse("sequential:depth=2", maxPoints: nil)
                == .failure(.unexpectedOptions("sequential:depth=2"))
        )
        // The spelling reports print parses back (exhaustive's carries its --max-points).
        for mode in [ScheduleMode.os, .random, .sequential, .default, .pct(depth: 2, steps: 9)] {
            #expect(ScheduleMode.parse(mode.name, maxPoints: nil) == .success(mode))
        }
    }

    @Test func sequentialIsRefusedWithAConcurrencyFault() throws {
        for command in ["run", "replay"] {
            var errors = ""
            let status = DeepLinkBench.main(
                arguments: [command, "--schedule", "sequential", "--core-faults", "forgetRoutedRing"]
                    + (command == "replay" ? ["--seed", "1", "--journey", "0"] : ["--journeys", "1"]),
                io: CommandIO(stdout: { _ in }, stderr: { errors += $0 })
            )
            #expect(status == 2, "\(command): \(errors)")
            #expect(errors.contains("sequential delivers racing inputs in order"), "\(command): \(errors)")
        }
    }

    /// `sequential` is the no-race baseline: each racing journey's inputs in order on the worker's
    /// thread, no schedule point passed, and still nothing the oracle calls a violation.
    @Test func sequentialDeliversEveryRaceInOrderOnOneThread() {
        var context = StrategyContext(mix: .default)
        context.schedule = .sequential
        var core = CoreStrategy(context: context)
        let generator = JourneyGenerator(seed: 11, raceShare: 1)
        let oracle = Oracle()
        var raced = 0
        for index in 0..<UInt64(500) {
            let journey = generator.journey(at: index)
            var observation = StrategyObservation()
            core.run(journey, into: &observation)
            let outcome = oracle.classify(observation, expectation: oracle.expect(journey), journey: journey)
            #expect(!outcome.isViolation, "journey \(index): \(outcome.name)")
            #expect(observation.schedule.isEmpty)
            if observation.raceStep >= 0 {
                raced += 1
                #expect(observation.raceThreads == 1)
            }
        }
        core.finish()
        #expect(raced > 400)
    }
}
