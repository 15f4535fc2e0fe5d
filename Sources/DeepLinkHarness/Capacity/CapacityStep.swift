/// What one step measured: a row of capacity.csv.
///
/// Thread safety: a value type.
package struct CapacityStep: Sendable, Equatable {
    package var threads: Int
    package var offeredPerSecond: Double
    /// Journeys started per second of the step's wall time.
    package var achievedPerSecond: Double
    /// Journey latency from intended start (start lag + service), percentiles, ns.
    package var p50Nanos: UInt64
    package var p99Nanos: UInt64
    package var p999Nanos: UInt64
    package var dropped: UInt64
    /// Bytes the measured strategy allocated per journey (jemalloc; 0 without it).
    package var bytesPerJourney: Double
    /// The strategy's mean time per journey, ns (its service time alone).
    package var meanServiceNanos: Double
    /// Share of thread time the harness spent around the strategy (generating, judging), 0…1.
    package var harnessShare: Double
    /// What else the machine did during the step; a disturbed step's rate is not trustworthy.
    package var disturbance: Disturbance

    package init(
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
    package func meets(sloP99Nanos: UInt64) -> Bool { p99Nanos <= sloP99Nanos && dropped == 0 }
}
