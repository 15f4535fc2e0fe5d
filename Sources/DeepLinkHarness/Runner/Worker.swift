#if canImport(Glibc)
import Glibc
#endif

/// One worker thread of a run: takes batches from its ``ArrivalSource`` and runs each batch
/// through every strategy in turn (all of a batch's journeys through one strategy, then the next:
/// a strategy behind a pipe gets the batch at once), with one measurement step per journey
/// (``measure(_:at:strategy:tally:corrected:)``).
///
/// What is measured, the same in both loops:
/// - strategy time and bytes: read around the strategy's `run` (and `prepare`) alone;
/// - harness time and bytes: everything else the worker spends on that strategy's pass over the
///   batch (classifying, tallying, the beacon, the loop), plus an equal share of preparing the
///   batch (generating the journeys and asking the oracle);
/// - open-loop idle time (waiting for an arrival's start) is neither, and nor is the time spent
///   running the paired worker's race partner (``RaceDesk``) between journeys, of a pass or of a
///   batch being prepared: its own racing journey's time counts that race.
///
/// Every difference the worker takes is read on one stopwatch, ``OperationClock`` (the CPU's
/// counter where the kernel keeps time by it), so that harness time, the pass less the strategy's
/// time, subtracts two readings of one clock. Not `CLOCK_MONOTONIC`: on the project's VMs its read
/// costs more than the counter's, and part of every read lands inside the timed journey
/// (commit 7a3f5af has the numbers).
/// Open-loop arrivals stay on `CLOCK_MONOTONIC` (``ArrivalSource``: the schedule is in it).
///
/// Thread safety: a value type used by its own thread only.
struct Worker {
    let shared: SharedRunState
    let thread: Int
    /// This thread's allocation counter (made on the worker thread, in ``work()``).
    var allocations = ThreadAllocationCounter()
    /// Where the paired worker asks this one to partner its races (nil: unpaired), unretained:
    /// read between every two journeys, a strong reference was retained and released each time,
    /// writing the desk's reference count on a line the paired worker reads. The run's
    /// ``SharedRunState/raceDesks`` holds every desk for the whole run.
    var raceDesk: Unmanaged<RaceDesk>?
    /// ``OperationClock/calibration``, held (a reading is not a `swift_once` call).
    let stopwatch = OperationClock.calibration
    /// A pass's observations, judged after the strategy has run every journey of the batch
    /// (``run(_:trapped:strategy:tally:corrected:preparation:oracle:)``); reused, so a pass
    /// allocates nothing for them.
    var observations: [StrategyObservation] = []

    mutating func work() -> WorkerResult {
        allocations = ThreadAllocationCounter()
        observations.reserveCapacity(Runner.chunkSize)
        let configuration = shared.configuration
        var context = StrategyContext(mix: configuration.mix)
        context.coreFaults = configuration.coreFaults
        context.schedule = configuration.schedule
        context.workerThreads = configuration.threads
        context.races = configuration.raceShare > 0
        context.racePeering = RacePeering.of(thread, threads: configuration.threads, desks: shared.raceDesks)
        raceDesk = context.racePeering.map { Unmanaged.passUnretained($0.own) }
        for adapter in configuration.execAdapters { context.execAdapters[adapter.name] = adapter }
        let oracle = Oracle(mix: configuration.mix)
        // Before this worker's own tallies exist, so that they reuse what the warm-up's freed.
        warmUp(oracle: oracle)
        var strategies = configuration.strategies.map { $0.make(context: context) }
        var result = WorkerResult(
            tallies: configuration.strategies.map { StrategyTally(kind: $0) },
            corrected: [Histogram](repeating: Histogram(), count: configuration.strategies.count),
            arrivals: ArrivalCounts(),
            undecided: 0
        )
        let beacon = shared.beacons[thread]
        beacon.register()
        let trapped = strategies.indices.map { index in
            Set(configuration.trappedJourneys.filter { $0.strategyIndex == index }.map(\.journey))
        }
        let source = ArrivalSource(configuration: configuration, thread: thread)
        shared.ready.add(1, ordering: .releasing)
        var start = shared.startNanos.load(ordering: .acquiring)
        while start == 0 {
            sched_yield()
            start = shared.startNanos.load(ordering: .acquiring)
        }
        guard var source else { return result }
        source.prepareFirst(shared: shared, oracle: oracle, allocations: allocations)
        while Runner.monotonicNanos() < start { ArrivalSource.idle(untilNanos: start) }
        var batch = JourneyBatch()
        var unreported: UInt64 = 0
        while let taken = source.next(
            into: &batch,
            shared: shared,
            oracle: oracle,
            allocations: allocations,
            start: start,
            betweenJourneys: { [raceDesk, allocations, stopwatch] served in
                Self.serveIfAsked(at: raceDesk, allocations: allocations, stopwatch: stopwatch, into: &served)
            }
        ) {
            result.undecided &+= batch.undecided
            let share = Share(batch, strategies: strategies.count)
            for index in strategies.indices {
                // In place (inout array elements): no copy-on-write of the counters per batch.
                beacon.strategy.store(index, ordering: .relaxed)
                run(
                    batch,
                    trapped: trapped[index],
                    strategy: &strategies[index],
                    tally: &result.tallies[index],
                    corrected: &result.corrected[index],
                    preparation: share.of(index),
                    oracle: oracle
                )
            }
            // Progress in batches: one shared atomic add per open-loop arrival would make the
            // threads contend for its cache line.
            unreported &+= taken
            if unreported >= UInt64(Runner.chunkSize) {
                shared.completed.add(unreported, ordering: .relaxed)
                unreported = 0
            }
        }
        shared.completed.add(unreported, ordering: .relaxed)
        raceDesk?._withUnsafeGuaranteedRef { $0.close() }
        for index in strategies.indices { strategies[index].finish() }
        result.arrivals = source.arrivals
        return result
    }

    /// One strategy's pass over a batch: each journey through the measurement step, then each
    /// observation judged against the oracle and tallied; the pass's remaining time and bytes (and
    /// its `preparation` share) to the harness. Generic, so the strategy's existential is opened
    /// once per pass rather than projected once per journey.
    ///
    /// Two loops, not one: judged between every two journeys, the harness's code and the
    /// strategy's evicted each other from the instruction cache, and each paid the misses.
    mutating func run<S: Strategy>(
        _ batch: JourneyBatch,
        trapped: Set<UInt64>,
        strategy: inout S,
        tally: inout StrategyTally,
        corrected: inout Histogram,
        preparation: (nanos: UInt64, bytes: UInt64),
        oracle: Oracle
    ) {
        let passBytes = allocations.bytes
        let passStart = stopwatch.now()
        let strategyNanosBefore = tally.strategyNanos
        let strategyBytesBefore = tally.allocatedBytes
        strategy.prepare(batch.journeys)
        tally.strategyNanos &+= stopwatch.nanos(since: passStart)
        tally.allocatedBytes &+= allocations.bytes &- passBytes
        let limit = shared.configuration.violationLimit
        let beacon = shared.beacons[thread]
        var served: (nanos: UInt64, bytes: UInt64) = (0, 0)
        // Each journey is read in place through the span: a local `let` would copy all of it.
        let journeys = batch.journeys.span
        observations.removeAll(keepingCapacity: true)
        for position in journeys.indices {
            Self.serveIfAsked(at: raceDesk, allocations: allocations, stopwatch: stopwatch, into: &served)
            // Observed in place: returned, an observation was copied into the array. The judging loop
            // below reads observations and expectations through spans, in place too.
            observations.append(StrategyObservation())
            guard !Self.killed(journeys[position].index, earlierIn: trapped) else { continue }
            beacon.journey.store(journeys[position].index, ordering: .relaxed)
            measure(
                journeys[position],
                at: position < batch.lagNanos.count ? batch.lagNanos[position] : nil,
                beacon: beacon,
                strategy: &strategy,
                into: &observations[position],
                tally: &tally,
                corrected: &corrected
            )
        }
        let observed = observations.span
        let expectations = batch.expectations.span
        for position in journeys.indices {
            let outcome =
                Self.killed(journeys[position].index, earlierIn: trapped)
                ? .trapped
                : oracle.classify(
                    observed[position],
                    expectation: expectations[position],
                    journey: journeys[position],
                    distinctions: strategy.distinctions
                )
            tally.record(
                outcome,
                journey: journeys[position],
                observation: observed[position],
                expected: expectations[position].outcome,
                violationLimit: limit
            )
        }
        beacon.startReading.store(0, ordering: .relaxed)
        tally.journeys &+= UInt64(batch.count)
        tally.coverage.add(features: batch.featureCounts)
        let passNanos = stopwatch.nanos(since: passStart)
        let bytes = allocations.bytes &- passBytes
        let strategyNanos = (tally.strategyNanos &- strategyNanosBefore) &+ served.nanos
        let strategyBytes = (tally.allocatedBytes &- strategyBytesBefore) &+ served.bytes
        tally.harnessNanos &+= (passNanos > strategyNanos ? passNanos &- strategyNanos : 0) &+ preparation.nanos
        tally.harnessAllocatedBytes &+= (bytes > strategyBytes ? bytes &- strategyBytes : 0) &+ preparation.bytes
    }

    /// The warm-up (``RunConfiguration/warmupJourneys``), before the start: the journeys of
    /// another seed (``warmupSeed(_:)``), none racing, through fresh instances of the built-in
    /// strategies without planted faults, measured into tallies that are thrown away. Fresh
    /// instances, so that nothing a warm-up journey leaves in a strategy reaches a counted one;
    /// what warms is shared: code, caches, the allocator, lazily built tables. Not the `exec:`
    /// strategies: a second child would share the worker's state directory.
    mutating func warmUp(oracle: Oracle) {
        let configuration = shared.configuration
        guard configuration.warmupJourneys > 0 else { return }
        var context = StrategyContext(mix: configuration.mix)
        context.workerThreads = configuration.threads
        let kinds = configuration.strategies.filter { if case .exec = $0 { false } else { true } }
        var strategies = kinds.map { $0.make(context: context) }
        var tallies = kinds.map { StrategyTally(kind: $0) }
        var corrected = Histogram()
        let generator = JourneyGenerator(
            seed: Self.warmupSeed(configuration.seed),
            mix: configuration.mix,
            raceShare: 0
        )
        var batch = JourneyBatch()
        var next: UInt64 = 0
        while next < configuration.warmupJourneys {
            batch.removeAll()
            let end = min(configuration.warmupJourneys, next &+ UInt64(Runner.chunkSize))
            for index in next..<end { batch.append(generator.journey(at: index), oracle: oracle) }
            next = end
            for index in strategies.indices {
                run(
                    batch,
                    trapped: [],
                    strategy: &strategies[index],
                    tally: &tallies[index],
                    corrected: &corrected,
                    preparation: (0, 0),
                    oracle: oracle
                )
            }
        }
        for index in strategies.indices { strategies[index].finish() }
    }

    /// Whether the journey of index `journey` killed the process in an earlier attempt
    /// (`trapped`): it is counted as trapped, never run again.
    @inline(__always)
    static func killed(_ journey: UInt64, earlierIn trapped: Set<UInt64>) -> Bool {
        !trapped.isEmpty && trapped.contains(journey)
    }

    /// The warm-up's seed: not the run's, so that no counted journey runs during the warm-up.
    static func warmupSeed(_ seed: UInt64) -> UInt64 { seed ^ 0x9E37_79B9_7F4A_7C15 }

    /// Runs the paired worker's race partner if it asked for one at `desk`, adding its time and
    /// bytes to `served` (a relaxed load when it did not). From values alone (none
    /// reference-counted): it runs between every two journeys, and a closure that captured the
    /// worker copied it, retaining ``SharedRunState``, an object every worker thread shares, at
    /// every call.
    @inline(__always)
    static func serveIfAsked(
        at desk: Unmanaged<RaceDesk>?,
        allocations: ThreadAllocationCounter,
        stopwatch: OperationClock.Calibration,
        into served: inout (nanos: UInt64, bytes: UInt64)
    ) {
        guard let desk, desk._withUnsafeGuaranteedRef({ $0.isAsked }) else { return }
        let bytes = allocations.bytes
        let start = stopwatch.now()
        guard desk._withUnsafeGuaranteedRef({ $0.serveIfAsked() }) else { return }
        served.nanos &+= stopwatch.nanos(since: start)
        served.bytes &+= allocations.bytes &- bytes
    }

    /// The measurement step: runs one journey through the strategy into `observation`, timing it
    /// and counting its allocations (and, open loop, its latency from the intended start, `lag`
    /// earlier).
    @inline(__always)
    func measure<S: Strategy>(
        _ journey: Journey,
        at lag: UInt64?,
        beacon: WorkerBeacon,
        strategy: inout S,
        into observation: inout StrategyObservation,
        tally: inout StrategyTally,
        corrected: inout Histogram
    ) {
        let bytesBefore = allocations.bytes
        let libcryptoBefore = LibcryptoAllocations.bytes
        let start = stopwatch.now()
        beacon.startReading.store(start, ordering: .releasing)
        strategy.run(journey, into: &observation, metrics: &tally.operationNanos)
        let service = stopwatch.nanos(since: start)
        let bytes = allocations.bytes &- bytesBefore
        let libcrypto = LibcryptoAllocations.bytes &- libcryptoBefore
        tally.allocatedBytes &+= bytes
        tally.libcryptoBytes &+= libcrypto
        tally.strategyNanos &+= service
        if journey.racing {
            tally.racingBytes &+= bytes
            tally.racingLibcryptoBytes &+= libcrypto
            tally.racingJourneyNanos.record(service)
            tally.racingJourneys &+= 1
            tally.racingNanos &+= service
            if observation.raceThreads >= 2 { tally.racesOnTwoThreads &+= 1 }
        } else {
            tally.nonRacingJourneyNanos.record(service)
        }
        if let lag { corrected.record(lag &+ service) }
    }
}
