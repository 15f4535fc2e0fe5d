/// How a capacity sweep runs (`deeplink-bench capacity`): which thread counts, which latency
/// objective, how long each step offers its rate, and how finely the highest sustainable rate is
/// searched for.
///
/// Thread safety: a value type; `Sendable`.
public struct CapacitySweep: Sendable {
    /// Worker thread counts to sweep, in order (e.g. 1…cores).
    public var threadCounts: [Int]
    /// The objective: p99 journey latency, measured from each arrival's intended start, at most
    /// this many ns.
    public var sloP99Nanos: UInt64
    /// Each step offers its rate for about this long (journeys = rate × duration).
    public var stepSeconds: Double
    /// At least this many journeys per step, so a slow step still has a p99 worth reading.
    public var minimumJourneysPerStep: UInt64
    /// The first rate tried per thread, journeys/s (the first step offers this × threads).
    public var startRatePerThread: Double
    /// Never offer more than this, journeys/s in total.
    public var maximumRate: Double
    /// Bisection steps between the last rate that held and the first that broke.
    public var refinements: Int
    /// Arrivals waiting longer than this are dropped (and the step fails the objective).
    public var maxLagNanos: UInt64
    public var seed: UInt64
    public var mix: ScenarioMix
    /// The strategy measured (the project's own, `core`, unless a comparison is wanted).
    public var strategy: StrategyKind
    /// Where each step's disturbance readings come from (the machine, or a test's script).
    public var disturbanceSource: any DisturbanceSource = ProcDisturbanceSource()

    public init(
        threadCounts: [Int],
        sloP99Nanos: UInt64 = 1_000_000,
        stepSeconds: Double = 1,
        minimumJourneysPerStep: UInt64 = 2_000,
        startRatePerThread: Double = 10_000,
        maximumRate: Double = 1e8,
        refinements: Int = 4,
        maxLagNanos: UInt64? = nil,
        seed: UInt64 = 1,
        mix: ScenarioMix = .default,
        strategy: StrategyKind = .core
    ) {
        self.threadCounts = threadCounts
        self.sloP99Nanos = sloP99Nanos
        self.stepSeconds = stepSeconds
        self.minimumJourneysPerStep = minimumJourneysPerStep
        self.startRatePerThread = startRatePerThread
        self.maximumRate = maximumRate
        self.refinements = refinements
        // Ten objectives' worth of backlog: far past failing, short enough that an overloaded step
        // ends on schedule instead of draining a long queue.
        self.maxLagNanos = maxLagNanos ?? sloP99Nanos.multipliedReportingOverflow(by: 10).partialValue
        self.seed = seed
        self.mix = mix
        self.strategy = strategy
    }

    /// The full sweep: every thread count 1…`cores`, 1 s steps, four bisections.
    public static func full(cores: Int, sloP99Nanos: UInt64 = 1_000_000) -> CapacitySweep {
        CapacitySweep(threadCounts: Array(1...max(1, cores)), sloP99Nanos: sloP99Nanos)
    }

    /// The reduced sweep (`--quick`, under a minute): 1 and `cores` threads, 0.2 s steps, two
    /// bisections.
    public static func quick(cores: Int, sloP99Nanos: UInt64 = 1_000_000) -> CapacitySweep {
        CapacitySweep(
            threadCounts: Array(Set([1, max(1, cores)])).sorted(),
            sloP99Nanos: sloP99Nanos,
            stepSeconds: 0.2,
            minimumJourneysPerStep: 1_000,
            startRatePerThread: 20_000,
            refinements: 2
        )
    }
}

/// One step of a sweep to measure: an open-loop run of `journeys` arrivals at `offeredPerSecond`
/// on `threads` threads, journey indices from `firstIndex`.
///
/// Thread safety: a value type.
public struct CapacityProbe: Sendable, Equatable {
    public var threads: Int
    public var offeredPerSecond: Double
    public var journeys: UInt64
    public var firstIndex: UInt64

    public init(threads: Int, offeredPerSecond: Double, journeys: UInt64, firstIndex: UInt64) {
        self.threads = threads
        self.offeredPerSecond = offeredPerSecond
        self.journeys = journeys
        self.firstIndex = firstIndex
    }
}

/// What one step measured: a row of capacity.csv.
///
/// Thread safety: a value type.
public struct CapacityStep: Sendable, Equatable {
    public var threads: Int
    public var offeredPerSecond: Double
    /// Journeys started per second of the step's wall time.
    public var achievedPerSecond: Double
    /// Journey latency from intended start (start lag + service), percentiles, ns.
    public var p50Nanos: UInt64
    public var p99Nanos: UInt64
    public var p999Nanos: UInt64
    public var dropped: UInt64
    /// Bytes the measured strategy allocated per journey (jemalloc; 0 without it).
    public var bytesPerJourney: Double
    /// The strategy's mean time per journey, ns (its service time alone).
    public var meanServiceNanos: Double
    /// Share of thread time the harness spent around the strategy (generating, judging), 0…1.
    public var harnessShare: Double
    /// What else the machine did during the step; a disturbed step's rate is not trustworthy.
    public var disturbance: Disturbance

    public init(
        threads: Int,
        offeredPerSecond: Double,
        achievedPerSecond: Double,
        p50Nanos: UInt64,
        p99Nanos: UInt64,
        p999Nanos: UInt64,
        dropped: UInt64,
        bytesPerJourney: Double,
        meanServiceNanos: Double = 0,
        harnessShare: Double = 0,
        disturbance: Disturbance = Disturbance()
    ) {
        self.threads = threads
        self.offeredPerSecond = offeredPerSecond
        self.achievedPerSecond = achievedPerSecond
        self.p50Nanos = p50Nanos
        self.p99Nanos = p99Nanos
        self.p999Nanos = p999Nanos
        self.dropped = dropped
        self.bytesPerJourney = bytesPerJourney
        self.meanServiceNanos = meanServiceNanos
        self.harnessShare = harnessShare
        self.disturbance = disturbance
    }

    /// Whether the step held the objective: p99 within `sloP99Nanos` and nothing dropped.
    public func meets(sloP99Nanos: UInt64) -> Bool { p99Nanos <= sloP99Nanos && dropped == 0 }
}

/// A finished sweep: every step in the order run, and per thread count the highest rate that held.
///
/// Thread safety: a value type.
public struct CapacityResult: Sendable {
    public var sweep: CapacitySweep
    public var steps: [CapacityStep]

    public init(sweep: CapacitySweep, steps: [CapacityStep]) {
        self.sweep = sweep
        self.steps = steps
    }

    /// Marks the steps that disagree with their neighbours as disturbed: at one thread count, a
    /// step that broke the objective at a lower rate than another step that held it (a quiet
    /// machine does not get slower with less load, so one of the two was disturbed; the failing
    /// one is the one the search trusted least). Called by ``CapacityPlanner/sweep(_:measure:progress:)``.
    public mutating func markInconsistentSteps() {
        for index in steps.indices where !steps[index].meets(sloP99Nanos: sweep.sloP99Nanos) {
            let step = steps[index]
            let heldHigher = steps.contains {
                $0.threads == step.threads && $0.offeredPerSecond > step.offeredPerSecond
                    && $0.meets(sloP99Nanos: sweep.sloP99Nanos)
            }
            if heldHigher {
                steps[index].disturbance.mark("broke the objective below a rate that held at \(step.threads) threads")
            }
        }
    }

    /// What else the machine did over the disturbed steps, merged (``Disturbance/merging(_:)``:
    /// steal and switches summed, the worse load and probe kept, every reason); a quiet
    /// ``Disturbance`` when no step was disturbed. Recorded in capacity's manifest.json, so that
    /// its page says what was measured.
    public var disturbance: Disturbance {
        var merged = Disturbance()
        for step in steps where step.disturbance.disturbed {
            // Past 2^64 ns of steal the sums stop growing; the reasons and the verdict still add up.
            if let sum = merged.merging(step.disturbance) {
                merged = sum
            } else {
                for reason in step.disturbance.reasons { merged.mark(reason) }
            }
        }
        return merged
    }

    /// How many steps the machine disturbed, of all.
    public var disturbedSteps: (disturbed: Int, all: Int) {
        (steps.filter(\.disturbance.disturbed).count, steps.count)
    }

    /// The step with the highest offered rate that met the objective at `threads` threads.
    public func bestStep(threads: Int) -> CapacityStep? {
        steps.filter { $0.threads == threads && $0.meets(sloP99Nanos: sweep.sloP99Nanos) }
            .max { $0.offeredPerSecond < $1.offeredPerSecond }
    }
}

/// Finds, for each thread count, the highest arrival rate whose p99 journey latency (from intended
/// start, open loop) stays within the objective with nothing dropped: the rate doubles from a
/// start until a step fails (or halves until one holds), then bisects between the last rate that
/// held and the first that failed.
///
/// The measurement is injected (``sweep(_:measure:progress:)``), so the search is testable without
/// timing; ``measure(_:sweep:)`` is the real one (an open-loop ``Runner`` run of one strategy).
///
/// Thread safety: stateless; a sweep blocks its caller.
public enum CapacityPlanner {
    /// Halvings tried when even the first rate fails, before giving up on a thread count.
    static let maximumHalvings = 6

    /// Runs `sweep`, calling `progress` after every step.
    public static func sweep(
        _ sweep: CapacitySweep,
        measure: (CapacityProbe) -> CapacityStep,
        progress: (CapacityStep) -> Void = { _ in }
    ) -> CapacityResult {
        var steps: [CapacityStep] = []
        // Each step continues the journey index space, so steps see new journeys.
        var nextIndex: UInt64 = 0
        func run(threads: Int, rate: Double) -> Bool {
            let journeys = max(sweep.minimumJourneysPerStep, UInt64(min(rate * sweep.stepSeconds, 1e12)))
            let step = measure(
                CapacityProbe(threads: threads, offeredPerSecond: rate, journeys: journeys, firstIndex: nextIndex)
            )
            nextIndex &+= journeys
            steps.append(step)
            progress(step)
            return step.meets(sloP99Nanos: sweep.sloP99Nanos)
        }
        for threads in sweep.threadCounts where threads >= 1 {
            var rate = min(sweep.maximumRate, max(1, (sweep.startRatePerThread * Double(threads)).rounded()))
            var held: Double?
            var failed: Double?
            while true {
                if run(threads: threads, rate: rate) {
                    held = rate
                    guard rate < sweep.maximumRate else { break }
                    rate = min(sweep.maximumRate, rate * 2)
                } else {
                    failed = rate
                    break
                }
            }
            if held == nil {
                for _ in 0..<maximumHalvings {
                    rate = (rate / 2).rounded(.down)
                    guard rate >= 1 else { break }
                    if run(threads: threads, rate: rate) {
                        held = rate
                        break
                    }
                    failed = rate
                }
            }
            if var low = held, var high = failed {
                for _ in 0..<sweep.refinements {
                    let middle = ((low + high) / 2).rounded()
                    guard middle > low, middle < high else { break }
                    if run(threads: threads, rate: middle) { low = middle } else { high = middle }
                }
            }
        }
        var result = CapacityResult(sweep: sweep, steps: steps)
        result.markInconsistentSteps()
        return result
    }

    /// Measures one probe for real: an open-loop run of `sweep.strategy` alone (race share 0, so
    /// one thread serves each journey), read from the run's tallies.
    public static func measure(_ probe: CapacityProbe, sweep: CapacitySweep) -> CapacityStep {
        var configuration = RunConfiguration(
            journeys: probe.journeys,
            firstIndex: probe.firstIndex,
            seed: sweep.seed,
            threads: probe.threads,
            strategies: [sweep.strategy],
            raceShare: 0,
            mix: sweep.mix,
            violationLimit: 0
        )
        configuration.openLoop = OpenLoopParameters(
            ratePerSecond: probe.offeredPerSecond,
            maxLagNanos: sweep.maxLagNanos
        )
        configuration.disturbanceSource = sweep.disturbanceSource
        return step(from: Runner.run(configuration), probe: probe)
    }

    /// The capacity.csv row of a finished open-loop run.
    static func step(from result: RunResult, probe: CapacityProbe) -> CapacityStep {
        let tally = result.tallies.first
        let corrected = result.openLoop?.correctedJourneyNanos.first ?? Histogram()
        let started = result.openLoop?.arrivals.started ?? (tally?.journeys ?? 0)
        let busy = Double(tally?.strategyNanos ?? 0)
        let harness = Double(tally?.harnessNanos ?? 0)
        let journeys = Double(tally?.journeys ?? 0)
        return CapacityStep(
            threads: probe.threads,
            offeredPerSecond: probe.offeredPerSecond,
            achievedPerSecond: result.wallNanos == 0 ? 0 : Double(started) * 1e9 / Double(result.wallNanos),
            p50Nanos: corrected.value(atPercentile: 50),
            p99Nanos: corrected.value(atPercentile: 99),
            p999Nanos: corrected.value(atPercentile: 99.9),
            dropped: result.openLoop?.arrivals.dropped ?? 0,
            bytesPerJourney: journeys == 0 ? 0 : Double(tally?.allocatedBytes ?? 0) / journeys,
            meanServiceNanos: journeys == 0 ? 0 : busy / journeys,
            harnessShare: busy + harness == 0 ? 0 : harness / (busy + harness),
            disturbance: result.disturbance
        )
    }
}
