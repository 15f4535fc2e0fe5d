import DeepLinkHarness

/// `race`: what a controlled race adds to the work it interleaves. The same racing journeys (seed
/// 1, the default mix, every journey racing) through `core` twice: under the default schedule
/// (`pct`, each race's logical threads interleaved as fibers on this thread) and delivered in
/// order (`sequential`: the same inputs, one after the other, no race).
///
/// This is the like-for-like measure of a race's cost. A racing journey's work is about 2.5 times a
/// non-racing one's even delivered in order (a burst of four captures and a second source, where
/// the other journeys capture once), so `run`'s racing-to-non-racing cost ratio compares unequal
/// work; this pair holds the work equal and leaves only the race.
enum RaceComparisons {
    static func all(corpusSize: Int) -> [Comparison] {
        let corpus = JourneyComparisons.corpus(size: corpusSize, raceShare: 1)
        // Set up for races when made, as a run's strategies are: not in the first timed journey.
        var raced = StrategyContext(mix: .default)
        raced.races = true
        raced.schedule = .default
        var inOrder = raced
        inOrder.schedule = .sequential
        return [
            Comparison(
                benchmark: "race",
                subject: JourneyComparisons.side("race-pct", .core, context: raced, corpus: corpus),
                peer: JourneyComparisons.side("race-sequential", .core, context: inOrder, corpus: corpus)
            )
        ]
    }
}
