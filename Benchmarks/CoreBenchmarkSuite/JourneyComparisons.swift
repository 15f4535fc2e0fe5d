import DeepLinkHarness
import Synchronization

/// `journey`: one complete journey of the default mix through `core` (DeepLinkCore driven as
/// the harness's worker drives it: ``Strategy/run(_:into:metrics:)`` with the operation
/// histograms) against the same journeys through `naive` (the article's snippet), with no harness
/// around either: the journeys are generated before the timed loop, and no oracle judges them.
/// No journey races (no partner thread), so the subject's instruction count repeats. Not named
/// `journey-core`: that is the instruction gate's count of `CoreStrategy.run` inside a real run
/// (``InstructionCount/journeyWorkload``), and the gate's rows are keyed by name.
enum JourneyComparisons {
    static func all(corpusSize: Int) -> [Comparison] {
        let corpus = Self.corpus(size: corpusSize, raceShare: 0)
        let context = StrategyContext(mix: .default)
        return [
            Comparison(
                benchmark: "journey",
                subject: side("journey-core", .core, context: context, corpus: corpus),
                peer: side("journey-naive", .naive, context: context, corpus: corpus)
            )
        ]
    }

    /// The default mix's first `size` journeys of seed 1 (at least one), `raceShare` of them racing.
    static func corpus(size: Int, raceShare: Double) -> [Journey] {
        let generator = JourneyGenerator(seed: 1, mix: .default, raceShare: raceShare)
        return (0..<UInt64(max(1, size))).map { generator.journey(at: $0) }
    }

    /// A side that runs `corpus`, cycling, through one strategy of `kind` made for `context`.
    static func side(
        _ name: String,
        _ kind: StrategyKind,
        context: StrategyContext,
        corpus: [Journey]
    ) -> BenchmarkSide {
        // Made once, reused by every sample as a worker reuses its strategies; the lock is taken
        // once per sample, not per journey.
        let state = Mutex((strategy: kind.make(context: context), metrics: OperationHistograms()))
        return BenchmarkSide(name) { operations in
            state.withLock { state in
                var routes = 0
                let bytes = measuringAllocations(operations, cycling: corpus.count) { index in
                    var observation = StrategyObservation()
                    state.strategy.run(corpus[index], into: &observation, metrics: &state.metrics)
                    routes &+= observation.routeCount
                }
                blackHole(routes)
                return bytes
            }
        }
    }
}
