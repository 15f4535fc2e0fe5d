package import DeepLinkHarness

#if canImport(Glibc)
import Glibc
#endif

/// One side of a comparison: a name and a body that performs `n` operations.
///
/// The body returns the bytes allocated by its measured loop, on every thread it used (see
/// ``measuringAllocations(_:)``); setup outside the loop, such as starting a helper thread, is not
/// an operation's cost and is left out.
package struct BenchmarkSide: Sendable {
    package var name: String
    package var run: @Sendable (_ operations: Int) -> UInt64

    package init(_ name: String, run: @escaping @Sendable (_ operations: Int) -> UInt64) {
        self.name = name
        self.run = run
    }
}

/// A subject (ours) and a peer doing the same work, measured side by side in one run.
package struct Comparison: Sendable {
    package var benchmark: String
    package var subject: BenchmarkSide
    package var peer: BenchmarkSide
    /// Threads each side keeps busy: what the machine's disturbance is judged against.
    package var threads: Int

    package init(benchmark: String, subject: BenchmarkSide, peer: BenchmarkSide, threads: Int = 1) {
        self.benchmark = benchmark
        self.subject = subject
        self.peer = peer
        self.threads = threads
    }
}

/// What one comparison measured. Times are medians over the repetitions; `speedup` is the median
/// of the per-pair ratios `peer / subject` (so > 1 means the subject is faster).
package struct ComparisonResult: Sendable, Equatable {
    package var benchmark: String
    package var subject: String
    package var peer: String
    package var subjectNanosPerOp: Double
    package var peerNanosPerOp: Double
    package var speedup: Double
    /// The lower and upper quartiles of the per-pair ratios: the spread of `speedup` over the
    /// repetitions.
    package var speedupLowerQuartile: Double
    package var speedupUpperQuartile: Double
    /// Bytes allocated per operation, everything included (libcrypto's too).
    package var subjectBytesPerOp: Double
    package var peerBytesPerOp: Double
    /// The part of the bytes per operation that OpenSSL's libcrypto allocated
    /// (``LibcryptoAllocations``).
    package var subjectLibcryptoBytesPerOp: Double
    package var peerLibcryptoBytesPerOp: Double
    package var repetitions: Int
    /// What else the machine did while this comparison ran, and the host-speed probe before and
    /// after it (``Disturbance``): a disturbed comparison's speedup says more about the machine.
    package var disturbance: Disturbance
}

/// Measures comparisons the way a noisy, shared machine allows: calibrate each side so a sample
/// lasts about `sampleNanos`, warm up, then run the two sides interleaved (A B A B …) so that both
/// see the same machine state, and summarise with medians. Allocation counts come from jemalloc's
/// per-thread counters and are exact.
///
/// Thread safety: a value type; run comparisons from one thread at a time.
package struct BenchmarkRunner: Sendable {
    /// Interleaved subject/peer pairs per comparison (at least 9 for the medians to mean much).
    package var repetitions: Int
    /// The target duration of one sample.
    package var sampleNanos: UInt64
    /// Operations used to count allocations per operation.
    package var allocationOperations: Int
    /// Where the disturbance readings and host-speed probes come from (the machine, or a test's script).
    package var disturbanceSource: any DisturbanceSource

    package init(
        repetitions: Int = 21,
        sampleNanos: UInt64 = 50_000_000,
        allocationOperations: Int = 1_000,
        disturbanceSource: any DisturbanceSource = ProcDisturbanceSource()
    ) {
        self.repetitions = max(1, repetitions)
        self.sampleNanos = max(1, sampleNanos)
        self.allocationOperations = max(1, allocationOperations)
        self.disturbanceSource = disturbanceSource
    }

    /// The quick configuration: fewer, shorter samples (still interleaved, still ≥ 9 pairs).
    package static let quick = BenchmarkRunner(repetitions: 9, sampleNanos: 10_000_000, allocationOperations: 200)

    package func run(_ comparison: Comparison) -> ComparisonResult {
        let probeStart = disturbanceSource.hostSpeedNanos()
        let startReading = disturbanceSource.read()
        let startNanos = MonotonicClock.nanoseconds()
        let subjectOps = calibrate(comparison.subject)
        let peerOps = calibrate(comparison.peer)
        _ = time(comparison.subject, operations: subjectOps)
        _ = time(comparison.peer, operations: peerOps)
        var subjectTimes: [Double] = []
        var peerTimes: [Double] = []
        var ratios: [Double] = []
        for _ in 0..<repetitions {
            let subject = time(comparison.subject, operations: subjectOps)
            let peer = time(comparison.peer, operations: peerOps)
            subjectTimes.append(subject)
            peerTimes.append(peer)
            ratios.append(subject > 0 ? peer / subject : 0)
        }
        let subjectBytes = bytesPerOperation(comparison.subject)
        let peerBytes = bytesPerOperation(comparison.peer)
        let wallNanos = MonotonicClock.nanoseconds() &- startNanos
        let endReading = disturbanceSource.read()
        let cores = ResourceUsage.coreCount()
        var thresholds = Disturbance.Thresholds()
        // A comparison whose threads fill every core preempts itself (seen here: 135-780 switches
        // per thread-second on an idle machine for the two-thread queue): its switches say nothing
        // about anyone else, so only steal, other runnable threads and the probe judge it.
        if comparison.threads >= cores { thresholds.switchesPerThreadSecond = .infinity }
        let disturbance = Disturbance(
            start: startReading,
            end: endReading,
            samples: [startReading, endReading],
            wallNanos: wallNanos,
            threads: comparison.threads,
            cores: cores,
            probeStartNanos: probeStart,
            probeEndNanos: disturbanceSource.hostSpeedNanos(),
            thresholds: thresholds
        )
        return ComparisonResult(
            benchmark: comparison.benchmark,
            subject: comparison.subject.name,
            peer: comparison.peer.name,
            subjectNanosPerOp: Self.median(subjectTimes),
            peerNanosPerOp: Self.median(peerTimes),
            speedup: Self.median(ratios),
            speedupLowerQuartile: Self.quantile(ratios, 0.25),
            speedupUpperQuartile: Self.quantile(ratios, 0.75),
            subjectBytesPerOp: subjectBytes.all,
            peerBytesPerOp: peerBytes.all,
            subjectLibcryptoBytesPerOp: subjectBytes.libcrypto,
            peerLibcryptoBytesPerOp: peerBytes.libcrypto,
            repetitions: repetitions,
            disturbance: disturbance
        )
    }

    /// Nanoseconds per operation for one sample of `operations` operations.
    func time(_ side: BenchmarkSide, operations: Int) -> Double {
        let start = MonotonicClock.nanoseconds()
        _ = side.run(operations)
        let elapsed = MonotonicClock.nanoseconds() &- start
        return Double(elapsed) / Double(operations)
    }

    /// The operation count whose sample lasts about `sampleNanos` (doubling from 1).
    func calibrate(_ side: BenchmarkSide) -> Int {
        var operations = 1
        while true {
            let start = MonotonicClock.nanoseconds()
            _ = side.run(operations)
            let elapsed = MonotonicClock.nanoseconds() &- start
            if elapsed >= sampleNanos / 4 || operations >= 1 << 30 {
                let perOp = max(Double(elapsed) / Double(operations), 0.01)
                return max(1, min(1 << 30, Int(Double(sampleNanos) / perOp)))
            }
            operations *= 2
        }
    }

    /// Bytes allocated per operation after warm-up, as the body measured them, and the part of
    /// them libcrypto allocated.
    func bytesPerOperation(_ side: BenchmarkSide) -> (all: Double, libcrypto: Double) {
        _ = side.run(allocationOperations)
        let libcryptoBefore = LibcryptoAllocations.bytes
        let all = side.run(allocationOperations)
        let libcrypto = LibcryptoAllocations.bytes &- libcryptoBefore
        return (Double(all) / Double(allocationOperations), Double(libcrypto) / Double(allocationOperations))
    }

    /// The median (mean of the middle two for an even count); 0 for no values.
    package static func median(_ values: [Double]) -> Double { quantile(values, 0.5) }

    /// The `fraction` quantile, interpolated linearly between the two nearest ranks; 0 for no values.
    package static func quantile(_ values: [Double], _ fraction: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let position = Double(sorted.count - 1) * min(max(fraction, 0), 1)
        let below = Int(position.rounded(.down))
        let above = min(below + 1, sorted.count - 1)
        return sorted[below] + (sorted[above] - sorted[below]) * (position - Double(below))
    }
}

/// `CLOCK_MONOTONIC` in nanoseconds.
package enum MonotonicClock {
    @inline(__always)
    package static func nanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    }
}

/// Runs `operations` iterations of `body` and returns the bytes the calling thread allocated.
@inline(__always)
package func measuringAllocations(_ operations: Int, _ body: (Int) -> Void) -> UInt64 {
    AllocationCounter.bytesAllocated {
        for index in 0..<operations { body(index) }
    }
}

/// Keeps a value alive so the optimiser cannot delete the work that produced it.
@inline(never)
package func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
