/// Where disturbance readings come from: the machine (``ProcDisturbanceSource``) or, in tests, a
/// script of synthetic readings.
///
/// Thread safety: `Sendable`; ``read()`` is called from the thread that runs the measurement.
package protocol DisturbanceSource: Sendable {
    /// The readings now.
    func read() -> DisturbanceReading

    /// The machine's speed now (``HostSpeedProbe``), in nanoseconds per probe round; nil when this
    /// source takes no probe. Called before and after a measurement, never during it (the probe
    /// would compete with the workers for a core).
    func hostSpeedNanos() -> Double?
}

extension DisturbanceSource {
    /// No probe: a scripted source that does not script one.
    package func hostSpeedNanos() -> Double? { nil }
}
