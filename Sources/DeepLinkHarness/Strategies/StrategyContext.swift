/// What every strategy is configured with for a run.
///
/// Thread safety: a value type; `Sendable`.
package struct StrategyContext: Sendable {
    package var mix: ScenarioMix
    /// The time-to-live, seconds (the oracle uses the same).
    package var ttlSeconds: UInt32
    /// The fingerprint match window, seconds.
    package var fingerprintWindowSeconds: UInt32
    /// Deliberate miswirings of `core`, for tests of the harness itself (none in a real run).
    package var coreFaults: CoreStrategy.Faults = []
    /// How racing journeys are interleaved (`--schedule`, Docs/Scheduling.md).
    package var schedule: ScheduleMode = .default
    /// The child processes `exec:NAME` strategies drive (`run --exec`), by name.
    package var execAdapters: [String: ExecAdapter] = [:]
    /// The run's worker threads (a race's own partner threads spin between races only with a core
    /// to spare).
    var workerThreads = 1
    /// The worker paired with this one to partner each other's controlled races (``RaceDesk``).
    var racePeering: RacePeering?
    /// Whether the run has racing journeys (``RunConfiguration/raceShare`` above 0): a strategy
    /// then sets up its race machinery when it is made, before the run is timed, rather than in its
    /// first racing journey.
    package var races = false
    /// Whether `core` keeps each controlled race's steps (``RaceRecord/trace``): `replay` prints
    /// them; a run has no reader for them.
    package var recordsRaceTraces = false

    package init(mix: ScenarioMix) {
        self.mix = mix
        self.ttlSeconds = UInt32(min(mix.ttlSeconds, 31_536_000))
        self.fingerprintWindowSeconds = UInt32(min(mix.fingerprintWindowSeconds, 31_536_000))
    }
}
