/// What to run: how many journeys from which seed, on how many threads, through which strategies.
///
/// Thread safety: a value type; `Sendable`.
package struct RunConfiguration: Sendable {
    package var journeys: UInt64
    /// The first journey index (sharded runs start elsewhere).
    package var firstIndex: UInt64
    /// For one shard of a larger run: that run's journey count (`--journeys`); nil otherwise.
    package var wholeRunJourneys: UInt64? = nil
    package var seed: UInt64
    package var threads: Int
    package var strategies: [StrategyKind]
    /// Share of `core` journeys delivered from two threads at once.
    package var raceShare: Double
    package var mix: ScenarioMix
    /// Violating journeys kept per strategy (the lowest indices).
    package var violationLimit: Int
    /// Open loop (`--rate`): journeys arrive at a fixed rate instead of as fast as possible; nil
    /// for a closed-loop run. See ``OpenLoopSchedule``.
    package var openLoop: OpenLoopParameters? = nil
    /// The watchdog's limit: a journey still running after this long is reported as `hung` and
    /// the run stops with a report of what finished (closed loop).
    package var journeyTimeoutNanos: UInt64 = 10_000_000_000
    /// How often the thread that waits for the workers shows progress, samples the disturbance
    /// readings and checks the watchdog. A counted run waits a whole ``journeyTimeoutNanos``
    /// (``InstructionCount/countedVariable`` says why).
    package var pollNanos: UInt64 = 100_000_000
    /// Deliberate miswirings of `core`, for tests of the harness itself.
    package var coreFaults: CoreStrategy.Faults = []
    /// How `core`'s racing journeys are interleaved (`--schedule`).
    package var schedule: ScheduleMode = .default
    /// The child processes of the run's `exec:NAME` strategies (`run --exec`).
    package var execAdapters: [ExecAdapter] = []
    /// Journeys a strategy trapped on in an earlier attempt of a supervised run: counted as
    /// `trapped`, not run again.
    package var trappedJourneys: [TrappedJourney] = []
    /// Where the run's disturbance readings come from (the machine, or a test's script).
    package var disturbanceSource: any DisturbanceSource = ProcDisturbanceSource()
    /// When the readings mark the run disturbed.
    package var disturbanceThresholds = Disturbance.Thresholds()
    /// A time-based run (`run --duration`, closed loop): workers stop claiming chunks once this
    /// long has passed since the start, and ``journeys`` is only a cap. Every chunk claimed runs
    /// to its end, so the journeys run are the first ones, one range; the result's configuration
    /// says how many. Nil: run ``journeys`` journeys.
    package var durationNanos: UInt64? = nil
    /// Journeys each worker thread runs through fresh instances of the strategies before the
    /// start (`run --warmup`), counted nowhere. They come from another seed and never race, so the
    /// counted journeys are the same as without them. See ``Worker/warmUp(oracle:)``.
    package var warmupJourneys: UInt64 = 0

    package init(
        journeys: UInt64,
        firstIndex: UInt64 = 0,
        seed: UInt64,
        threads: Int,
        strategies: [StrategyKind] = StrategyKind.allCases,
        raceShare: Double = 0,
        mix: ScenarioMix = .default,
        violationLimit: Int = 1_000
    ) {
        self.journeys = journeys
        self.firstIndex = firstIndex
        self.seed = seed
        self.threads = max(1, threads)
        self.strategies = strategies
        self.raceShare = raceShare
        self.mix = mix
        self.violationLimit = violationLimit
    }
}
