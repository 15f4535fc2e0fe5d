import Synchronization

/// A fixed piece of work, timed, that tells how fast this machine runs *now*: one round copies a
/// 752-byte record (a `PendingLink`'s size) and takes and releases an uncontended lock, the two
/// things the resolver's path spends its time on besides plain arithmetic.
///
/// Why a probe beside steal time, preemptions and load: a shared VM can run a steady 2–3x slower
/// with none of them moving, even with zero steal and an idle load average. Timed before and after a measurement (``Disturbance``), the probe shows
/// a machine that changed speed during it; recorded with a baseline, it shows a run made on a
/// machine of another speed than the baseline's (``RegressionGate``), which the CPU model cannot.
///
/// The result is the fastest of several short samples: preemption and interrupts only ever make a
/// sample slower, so the minimum is the machine's own speed, and a machine that is slow throughout
/// raises it.
///
/// Thread safety: stateless; ``measure()`` may run on any thread (it allocates its own buffers).
package enum HostSpeedProbe {
    /// The bytes one round copies: a `PendingLink`'s size.
    package static let recordBytes = 752
    /// Rounds in one timed sample (~20–80 µs).
    package static let roundsPerSample = 2048
    /// Timed samples, after one untimed warm-up sample.
    package static let samples = 7

    /// Whether two probe times are further apart than `factor` (the slower one over the faster):
    /// the one rule behind a run that changed speed (``Disturbance``) and a run on a machine of
    /// another speed than its baseline's (``RegressionGate``). False when either is not positive.
    package static func differ(_ one: Double, _ other: Double, byMoreThan factor: Double) -> Bool {
        one > 0 && other > 0 && max(one, other) > factor * min(one, other)
    }

    /// Nanoseconds per round: the fastest of ``samples`` samples of ``roundsPerSample`` rounds.
    package static func measure() -> Double {
        let lock = Mutex<Int>(0)
        // Two records in one buffer, cache-line aligned, copied back and forth so that no copy can
        // be dropped as a repeat of the one before.
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 2 * recordBytes, alignment: 64)
        defer { buffer.deallocate() }
        buffer.initializeMemory(as: UInt8.self, repeating: 1, count: 2 * recordBytes)
        let first = buffer
        let second = buffer + recordBytes
        var fastest = Double.infinity
        for sample in 0...samples {
            let start = Runner.monotonicNanos()
            for round in 0..<roundsPerSample {
                let (from, to) = round & 1 == 0 ? (first, second) : (second, first)
                to.copyMemory(from: from, byteCount: recordBytes)
                // Reads the copy under the lock, so that neither can move out of the loop.
                lock.withLock { $0 &+= Int(to.load(fromByteOffset: round & 511, as: UInt8.self)) }
            }
            let nanos = Runner.monotonicNanos() &- start
            if sample > 0 { fastest = min(fastest, Double(nanos) / Double(roundsPerSample)) }
        }
        // The sum depends on every round's copy: used, it keeps the whole loop from being dropped.
        precondition(lock.withLock { $0 } == (samples + 1) * roundsPerSample, "a probe round did not run")
        return fastest
    }
}
