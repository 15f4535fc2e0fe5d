import DeepLinkCore

/// What one controlled race did: its schedule, its steps and how it ended.
///
/// Thread safety: a value type; `Sendable`.
package struct RaceRecord: Sendable {
    /// The mode the race ran under (`nil`: no controlled race in the journey).
    package var mode: ScheduleMode?
    /// The steps, in order (the first ``RaceTurns/traceCapacity``); kept only when the strategy's
    /// context asks (``StrategyContext/recordsRaceTraces``, as `replay` does).
    package var trace: [ScheduleStep] = []
    /// Schedule points passed (all of them, past the trace's capacity too).
    package var steps = 0
    package var hang: ScheduleHang?
    /// Schedule points reached and pairs interleaved (exhaustive: over every interleaving).
    package var coverage = ScheduleCoverage()
    /// Exhaustive: the interleavings explored for the journey.
    package var interleavings = 0
    /// The journey step whose input thread 0 delivered (thread 1: the next step's).
    package var raceStep = -1
    /// How many distinct OS threads delivered the race's inputs (observed).
    package var threads = 0
}

extension CoreStrategy {
    /// The last racing journey's controlled race.
    package var lastRaceRecord: RaceRecord { lastRace }

    package mutating func run(
        _ journey: Journey,
        into observation: inout StrategyObservation,
        metrics: inout OperationHistograms
    ) {
        defer { if observation.raceStep >= 0 { observation.raceThreads = UInt8(truncatingIfNeeded: lastRace.threads) } }
        guard case .exhaustive = schedule, journey.racing else {
            runOnce(journey, into: &observation, metrics: &metrics)
            return
        }
        explore(journey, into: &observation, metrics: &metrics)
    }

    /// `exhaustive`: out of line, so that the oracle's addressable borrow of the journey is made
    /// here and not on every journey's way through ``run(_:into:metrics:)``.
    @inline(never)
    mutating func explore(
        _ journey: Journey,
        into observation: inout StrategyObservation,
        metrics: inout OperationHistograms
    ) {
        // Every interleaving of the race's first points, each a fresh run of the whole journey
        // replayed from its prefix of choices; the first violating one is the journey's outcome.
        let oracle = Oracle(mix: mix)
        let expectation = oracle.expect(journey)
        var prefix: [UInt8] = []
        var interleavings = 0
        var coverage = ScheduleCoverage()
        while true {
            var attempt = StrategyObservation()
            explorationPrefix = prefix
            runOnce(journey, into: &attempt, metrics: &metrics)
            interleavings += 1
            coverage.formUnion(attempt.schedule)
            attempt.schedule = coverage
            observation = attempt
            let outcome = oracle.classify(
                attempt,
                expectation: expectation,
                journey: journey,
                distinctions: distinctions
            )
            guard !outcome.isViolation, lastRace.mode != nil, let controlled,
                let next = controlled.lastDecider.nextPrefix()
            else { break }
            prefix = next
        }
        explorationPrefix = []
        lastRace.interleavings = interleavings
        lastRace.coverage = coverage
    }

    /// Runs `mine` here and `theirs` on another thread, as ``RaceDelivery`` decides: a controlled
    /// race (the paired worker or a partner thread) under the strategy's schedule, seeded by the
    /// journey (`os` with a concurrency fault, or with no core to spare: the same two threads
    /// unscheduled), or a ``RacePartner`` thread under `os` with a core to spare.
    mutating func race(_ mine: RaceInput, _ theirs: RaceInput, journey: Journey) {
        if schedule == .sequential {
            lastRace = RaceRecord(raceStep: racedAt, threads: RaceDelivery.inOrder(on: resolver, mine, theirs))
            return
        }
        guard RaceDelivery.controls(schedule, faults: plantedCoreFaults, spareCore: raceSpareCore) else {
            let partner = partner ?? RacePartner()
            self.partner = partner
            partner.race(on: resolver, mine: mine, theirs: theirs)
            lastRace = RaceRecord(raceStep: racedAt, threads: partner.lastRaceThreads)
            return
        }
        if controlled == nil { controlled = makeControlledRace() }
        guard let controlled else { return }
        controlled.run(
            on: resolver,
            mine,
            theirs,
            schedule: schedule,
            seed: ScheduleDecider.seed(of: journey),
            prefix: explorationPrefix,
            faults: plantedCoreFaults
        )
        lastRace = RaceRecord(
            mode: schedule,
            trace: controlled.trace,
            steps: controlled.steps,
            hang: controlled.hang,
            coverage: controlled.coverage,
            raceStep: racedAt,
            threads: controlled.lastRaceThreads
        )
    }

    /// This strategy's controlled races: with its peer and core to spare, fibers set up for its
    /// schedule.
    func makeControlledRace() -> ControlledRace {
        ControlledRace(
            peering: racePeering,
            spareCore: raceSpareCore,
            schedule: schedule,
            recordsTraces: recordsRaceTraces
        )
    }

    /// The core's concurrency faults this strategy plants, as `ConcurrencyFault` bits.
    var plantedCoreFaults: UInt8 {
        var bits: UInt8 = 0
        if faults.contains(.drainerSkipsRecheck) { bits |= 1 << ConcurrencyFault.drainerSkipsRecheck.rawValue }
        if faults.contains(.forgetRoutedRing) { bits |= 1 << ConcurrencyFault.forgetRoutedRing.rawValue }
        if faults.contains(.consumerReadsUnpublished) {
            bits |= 1 << ConcurrencyFault.consumerReadsUnpublished.rawValue
        }
        return bits
    }

    /// Resets both resolvers' capture queues as new: a queue a planted fault corrupted must not
    /// carry into the next journey (each journey then replays alone as it ran in the run).
    func resetQueues() {
        resolvers.wide.resetQueueAsNew()
        resolvers.narrow.resetQueueAsNew()
    }
}
