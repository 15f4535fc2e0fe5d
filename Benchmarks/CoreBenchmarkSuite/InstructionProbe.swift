/// The fixed-iteration mode `deeplink-bench gate --instructions` runs under callgrind
/// (`CoreBenchmarks --instructions N [--filter NAME]`): each counted comparison's subject runs `N`
/// operations inside ``measure(_:operations:)``, the one function callgrind collects. The gate
/// runs it once natively to learn the names, then once per name under callgrind (callgrind's
/// `--dump-after` misses this function's exit, so one process per subject).
///
/// Thread safety: run from one thread.
package enum InstructionProbe {
    /// Whether a benchmark's instruction count repeats: those with a second thread spin for each
    /// other, so their counts follow the scheduler and are left out.
    package static func isCounted(_ benchmark: String) -> Bool { !benchmark.contains("2threads") }

    /// The measured call: callgrind's `--toggle-collect` and `--dump-after` name this function.
    @inline(never)
    package static func measure(_ side: BenchmarkSide, operations: Int) {
        blackHole(side.run(operations))
    }

    /// Warms up each counted subject whose benchmark is `only` (every one when nil; an exact name,
    /// as `referrer-parse` is a prefix of another), then measures it, calling `announce` with its
    /// benchmark name just before.
    package static func run(operations: Int, only: String?, announce: (String) -> Void) {
        for comparison in CoreBenchmarkSuite.comparisons(corpusSize: 200)
        where isCounted(comparison.benchmark) && (only.map { comparison.benchmark == $0 } ?? true) {
            _ = comparison.subject.run(max(1, operations / 10))
            announce(comparison.benchmark)
            measure(comparison.subject, operations: operations)
        }
    }
}
