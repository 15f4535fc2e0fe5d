/// Where disturbance readings come from: the machine (``ProcDisturbanceSource``) or, in tests, a
/// script of synthetic readings.
///
/// Thread safety: `Sendable`; ``read()`` is called from the thread that runs the measurement.
public protocol DisturbanceSource: Sendable {
    /// The readings now.
    func read() -> DisturbanceReading
}
