import Synchronization

/// A ``DisturbanceSource`` that replays given readings and host-speed probe times, each list in
/// order (its last entry repeats once it runs out; an empty probe list takes no probe): how the
/// tests of every measurement that judges disturbance (runs, capacity steps, CoreBenchmarks
/// comparisons) make a machine quiet, busy or changing speed on demand.
///
/// Thread safety: `Sendable`; the positions are atomics, so any thread may read.
package final class ScriptedDisturbanceSource: DisturbanceSource {
    private let readings: [DisturbanceReading]
    private let probes: [Double]
    private let nextReading = Atomic<Int>(0)
    private let nextProbe = Atomic<Int>(0)

    /// `readings` must not be empty.
    package init(_ readings: [DisturbanceReading], probes: [Double] = []) {
        precondition(!readings.isEmpty, "a scripted source needs at least one reading")
        self.readings = readings
        self.probes = probes
    }

    /// A quiet machine (no steal, no switches, nothing else runnable) whose probe gives `probes`.
    package convenience init(quietWithProbes probes: [Double]) {
        self.init(
            [DisturbanceReading(stealNanos: 0, involuntarySwitches: 0, runnable: 1, ownRunnable: 1)],
            probes: probes
        )
    }

    package func read() -> DisturbanceReading {
        readings[min(nextReading.add(1, ordering: .relaxed).oldValue, readings.count - 1)]
    }

    package func hostSpeedNanos() -> Double? {
        guard !probes.isEmpty else { return nil }
        return probes[min(nextProbe.add(1, ordering: .relaxed).oldValue, probes.count - 1)]
    }
}
