/// What one strategy did over the journeys one thread (or, merged, all threads) ran.
///
/// Thread safety: a value type; `Sendable`.
package struct StrategyTally: Sendable {
    package var kind: StrategyKind
    package var journeys: UInt64 = 0
    /// Journeys per (scenario class, outcome): index `class * JourneyOutcome.count + outcome`.
    package var counts: [UInt64]
    /// Time spent inside the strategy (its `run` and `prepare`), summed over threads.
    package var strategyNanos: UInt64 = 0
    /// Bytes allocated inside the strategy (jemalloc's per-thread counter; 0 without jemalloc).
    package var allocatedBytes: UInt64 = 0
    /// Thread time the harness spent around this strategy's journeys: classifying and tallying
    /// them, plus this strategy's equal share of generating the journeys and asking the oracle
    /// (shared by every strategy of the run). Summed over threads.
    package var harnessNanos: UInt64 = 0
    /// Bytes the harness allocated around this strategy's journeys (same split as
    /// ``harnessNanos``).
    package var harnessAllocatedBytes: UInt64 = 0
    /// Journeys marked ``Journey/racing`` (their first capture and the following signal are
    /// delivered from two threads at once by strategies that race) and their time inside the
    /// strategy, summed over threads.
    package var racingJourneys: UInt64 = 0
    package var racingNanos: UInt64 = 0
    /// Of ``allocatedBytes``, what OpenSSL's libcrypto allocated (``LibcryptoAllocations``); and
    /// the bytes of racing journeys alone, with libcrypto's part of them.
    package var libcryptoBytes: UInt64 = 0
    package var racingBytes: UInt64 = 0
    package var racingLibcryptoBytes: UInt64 = 0
    /// Per-journey time inside the strategy, racing journeys (``Journey/racing``) and the others
    /// apart (latency.csv's `journey_racing` and `journey_non_racing`). The racing one shares an
    /// empty storage until its first record (a strategy may meet none).
    package var racingJourneyNanos = StrategyTally.emptyHistogram
    package var nonRacingJourneyNanos = Histogram()

    /// Per-journey time inside the strategy, all journeys (latency.csv's `journey`): the two
    /// kinds merged, which is exact (same bucket layout, exact minimum and maximum).
    package var journeyNanos: Histogram {
        var all = nonRacingJourneyNanos
        all.merge(racingJourneyNanos)
        return all
    }

    private static let emptyHistogram = Histogram()
    /// Racing journeys whose race inputs were delivered by two distinct threads (OS threads or
    /// fibers), as the race machinery observed them (``StrategyObservation/raceThreads``).
    package var racesOnTwoThreads: UInt64 = 0
    /// Per core operation (parse, validate, enqueue, gate-open to route), when the strategy times
    /// them.
    package var operationNanos: OperationHistograms
    /// The violating journeys with the lowest indices (at most the run's limit), sorted by index.
    package var violations: [JourneyViolation] = []
    /// Journeys per feature and per decision path (`coverage.csv`).
    package var coverage = CoverageCounts()

    package init(kind: StrategyKind) {
        self.kind = kind
        self.counts = [UInt64](repeating: 0, count: ScenarioClass.count * JourneyOutcome.count)
        // Histograms are large; a strategy that records none shares one empty set.
        self.operationNanos = kind.timesOperations ? OperationHistograms() : .unused
    }

    /// Journeys with `outcome` in scenario class `scenario`.
    package func count(_ outcome: JourneyOutcome, in scenario: ScenarioClass) -> UInt64 {
        counts[scenario.denseIndex * JourneyOutcome.count + outcome.denseIndex]
    }

    /// Journeys with `outcome`, over all scenario classes.
    package func total(_ outcome: JourneyOutcome) -> UInt64 {
        var sum: UInt64 = 0
        for scenario in 0..<ScenarioClass.count { sum &+= counts[scenario * JourneyOutcome.count + outcome.denseIndex] }
        return sum
    }

    /// Journeys with any violation outcome (``JourneyOutcome/violations``).
    package var violationCount: UInt64 {
        JourneyOutcome.violations.reduce(0) { $0 &+ total($1) }
    }

    /// Counts one classified journey (its outcome and decision paths) and keeps it when it is a
    /// violation and room is left. Its features, the same for every strategy, are counted once
    /// with its batch (``JourneyBatch/featureCounts``) and added per pass.
    @inline(__always)
    mutating func record(
        _ outcome: JourneyOutcome,
        journey: Journey,
        observation: StrategyObservation,
        expected: JourneyOutcome,
        violationLimit limit: Int
    ) {
        counts[journey.scenario.denseIndex * JourneyOutcome.count + outcome.denseIndex] &+= 1
        coverage.count(paths: observation.paths)
        coverage.count(schedule: observation.schedule)
        if outcome.isViolation, violations.count < limit {
            violations.append(
                JourneyViolation(index: journey.index, scenario: journey.scenario, expected: expected, actual: outcome)
            )
        }
    }

    /// Adds `other` (same kind) into this tally; violations keep the lowest `limit` indices.
    package mutating func merge(_ other: StrategyTally, violationLimit limit: Int) {
        journeys &+= other.journeys
        for index in counts.indices { counts[index] &+= other.counts[index] }
        strategyNanos &+= other.strategyNanos
        allocatedBytes &+= other.allocatedBytes
        harnessNanos &+= other.harnessNanos
        harnessAllocatedBytes &+= other.harnessAllocatedBytes
        racingJourneys &+= other.racingJourneys
        racingNanos &+= other.racingNanos
        libcryptoBytes &+= other.libcryptoBytes
        racingBytes &+= other.racingBytes
        racingLibcryptoBytes &+= other.racingLibcryptoBytes
        racingJourneyNanos.merge(other.racingJourneyNanos)
        nonRacingJourneyNanos.merge(other.nonRacingJourneyNanos)
        racesOnTwoThreads &+= other.racesOnTwoThreads
        operationNanos.merge(other.operationNanos)
        coverage.merge(other.coverage)
        violations = Array((violations + other.violations).sorted { $0.index < $1.index }.prefix(limit))
    }
}
