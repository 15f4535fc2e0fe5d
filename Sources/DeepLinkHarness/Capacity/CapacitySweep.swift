/// How a capacity sweep runs (`deeplink-bench capacity`): which thread counts, which latency
/// objective, how long each step offers its rate, and how finely the highest sustainable rate is
/// searched for.
///
/// Thread safety: a value type; `Sendable`.
package struct CapacitySweep: Sendable {
    /// Worker thread counts to sweep, in order (e.g. 1…cores).
    package var threadCounts: [Int]
    /// The objective: p99 journey latency, measured from each arrival's intended start, at most
    /// this many ns.
    package var sloP99Nanos: UInt64
    /// Each step offers its rate for about this long (journeys = rate × duration).
    package var stepSeconds: Double
    /// At least this many journeys per step, so a slow step still has a p99 worth reading.
    package var minimumJourneysPerStep: UInt64
    /// The first rate tried per thread, journeys/s (the first step offers this × threads).
    package var startRatePerThread: Double
    /// Never offer more than this, journeys/s in total.
    package var maximumRate: Double
    /// Bisection steps between the last rate that held and the first that broke.
    package var refinements: Int
    /// Arrivals waiting longer than this are dropped (and the step fails the objective).
    package var maxLagNanos: UInt64
    package var seed: UInt64
    package var mix: ScenarioMix
    /// The strategy measured (the project's own, `core`, unless a comparison is wanted).
    package var strategy: StrategyKind
    /// Where each step's disturbance readings come from (the machine, or a test's script).
    package var disturbanceSource: any DisturbanceSource = ProcDisturbanceSource()

    package init(
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
    package static func full(cores: Int, sloP99Nanos: UInt64 = 1_000_000) -> CapacitySweep {
        CapacitySweep(threadCounts: Array(1...max(1, cores)), sloP99Nanos: sloP99Nanos)
    }

    /// The reduced sweep (`--quick`, under a minute): 1 and `cores` threads, 0.2 s steps, two
    /// bisections.
    package static func quick(cores: Int, sloP99Nanos: UInt64 = 1_000_000) -> CapacitySweep {
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
