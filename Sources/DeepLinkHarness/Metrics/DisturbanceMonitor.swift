/// Takes ``DisturbanceReading``s over one measurement: one when made, one per ``sample()`` (the
/// runner samples every ~100 ms while it waits for its workers) and one at
/// ``finish(wallNanos:threads:cores:probeStartNanos:probeEndNanos:thresholds:)``.
///
/// Thread safety: a value type used by the thread that runs the measurement.
struct DisturbanceMonitor {
    /// Readings kept at most (a 3-hour run at 10 per second); later samples replace the last one.
    static let maximumSamples = 100_000

    let source: any DisturbanceSource
    private(set) var samples: [DisturbanceReading]

    init(source: any DisturbanceSource) {
        self.source = source
        samples = [source.read()]
    }

    mutating func sample() {
        let reading = source.read()
        if samples.count < Self.maximumSamples { samples.append(reading) } else { samples[samples.count - 1] = reading }
    }

    /// The measurement's disturbance, with a last reading now, and the host-speed probe's times
    /// taken before and after it (nil: not taken).
    mutating func finish(
        wallNanos: UInt64,
        threads: Int,
        cores: Int,
        probeStartNanos: Double?,
        probeEndNanos: Double?,
        thresholds: Disturbance.Thresholds
    ) -> Disturbance {
        sample()
        return Disturbance(
            start: samples[0],
            end: samples[samples.count - 1],
            samples: samples,
            wallNanos: wallNanos,
            threads: threads,
            cores: cores,
            probeStartNanos: probeStartNanos,
            probeEndNanos: probeEndNanos,
            thresholds: thresholds
        )
    }
}
