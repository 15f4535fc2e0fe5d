#if canImport(Glibc)
import Glibc
#endif

extension JourneyGenerator {
    /// The generator of `configuration`'s journeys (its seed, mix and race share).
    package init(_ configuration: RunConfiguration) {
        self.init(seed: configuration.seed, mix: configuration.mix, raceShare: configuration.raceShare)
    }
}

/// Streams journeys through the strategies on a pool of worker threads. Closed and open loop share
/// everything but where arrivals come from (``ArrivalSource``): each worker takes a batch of
/// journeys (a claimed chunk of indices in closed loop, the next due arrival in open loop),
/// generates each from `(seed, index)`, asks the oracle, and runs every strategy over the batch
/// with one measurement step per journey (``Worker``): the strategy's own time and allocations are
/// read around `run` alone; everything else the worker does for that strategy is the harness's.
/// Workers merge their tallies once at the end, so memory stays flat in the journey count and the
/// counters do not depend on thread count or scheduling.
///
/// Thread safety: ``run(_:progress:)`` may be called from any thread; it blocks until done.
package enum Runner {
    /// Journeys a closed-loop worker claims at a time.
    package static let chunkSize = 512

    /// Runs `configuration`; `progress` is called on the calling thread every ~100 ms with the
    /// journeys completed so far (and once at the end). A journey still running after the
    /// configuration's timeout stops the run (``RunResult/hung``).
    package static func run(
        _ configuration: RunConfiguration,
        progress: (UInt64) -> Void = { _ in }
    ) -> RunResult {
        WorkerPool(configuration: configuration).run(progress: progress)
    }

    /// CLOCK_MONOTONIC in nanoseconds.
    @inline(__always)
    package static func monotonicNanos() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}
