extension RunResult {
    /// The report model of this run (what ``ReportWriter`` writes). Each strategy's `wallNanos` is
    /// the time its work occupied the workers: time inside the strategy summed over threads,
    /// divided by the thread count, so `journeys_per_s` is the strategy's own throughput at this
    /// thread count. Violation rows carry the regenerated event trace. The manifest gets the run's
    /// identity (``identity(runID:)``).
    package func report(runID: String, manifest: RunManifest, peakRSSBytes: UInt64) -> RunReport {
        var manifest = manifest
        manifest.run = identity(runID: runID)
        manifest.disturbance = disturbance
        let generator = JourneyGenerator(configuration)
        let threads = UInt64(max(1, configuration.threads))
        let strategies = tallies.enumerated().map { position, tally in
            var counts: [OutcomeKey: UInt64] = [:]
            for scenarioIndex in 0..<ScenarioClass.count {
                let scenario = ScenarioClass(denseIndex: scenarioIndex)
                for outcomeIndex in 0..<JourneyOutcome.count {
                    let count = tally.counts[scenarioIndex * JourneyOutcome.count + outcomeIndex]
                    guard count > 0 else { continue }
                    let key = OutcomeKey(
                        scenarioClass: scenario.name,
                        outcome: JourneyOutcome(denseIndex: outcomeIndex).name
                    )
                    counts[key] = count
                }
            }
            var histograms: [String: Histogram] = [Metric.journey: tally.journeyNanos]
            for (name, histogram) in [
                (Metric.journeyRacing, tally.racingJourneyNanos),
                (Metric.journeyNonRacing, tally.nonRacingJourneyNanos),
            ] where histogram.count > 0 {
                histograms[name] = histogram
            }
            if let openLoop, position < openLoop.correctedJourneyNanos.count {
                histograms[Metric.journeyCorrected] = openLoop.correctedJourneyNanos[position]
            }
            let operations = tally.operationNanos
            for (name, histogram) in [
                (Metric.parse, operations.parse), (Metric.validate, operations.validate),
                (Metric.enqueue, operations.enqueue), (Metric.gateOpenToRoute, operations.gateOpenToRoute),
            ] where histogram.count > 0 {
                histograms[name] = histogram
            }
            let violations = tally.violations.prefix(ReportSchema.maxViolationRowsPerStrategy).map { violation in
                ViolationRecord(
                    strategy: tally.kind.rawValue,
                    seed: configuration.seed,
                    journey: violation.index,
                    scenarioClass: violation.scenario.name,
                    expected: violation.expected.name,
                    actual: violation.actual.name,
                    trace: generator.journey(at: violation.index).trace
                )
            }
            var coverage: [CoverageKey: UInt64] = [:]
            for (index, name) in CoverageCounts.featureNames.enumerated() {
                coverage[CoverageKey(kind: CoverageKey.feature, name: name)] = tally.coverage.features[index]
            }
            if tally.kind.reportsDecisionPaths {
                for (index, path) in DecisionPaths.named.enumerated() {
                    coverage[CoverageKey(kind: CoverageKey.path, name: path.name)] = tally.coverage.paths[index]
                }
                // Every point (zero: never reached); of the pairs only those interleaved at all
                // (most of the 441 cannot be: a point one thread never passes while another waits).
                for (index, name) in ScheduleCoverage.pointNames.enumerated() {
                    coverage[CoverageKey(kind: CoverageKey.point, name: name)] = tally.coverage.points[index]
                }
                for (index, name) in ScheduleCoverage.pairNames.enumerated() where tally.coverage.pairs[index] > 0 {
                    coverage[CoverageKey(kind: CoverageKey.pair, name: name)] = tally.coverage.pairs[index]
                }
            }
            return StrategyReport(
                name: tally.kind.rawValue,
                journeys: Int(tally.journeys),
                wallNanos: tally.strategyNanos / threads,
                outcomeCounts: counts,
                histograms: histograms,
                allocatedBytes: tally.allocatedBytes,
                violations: Array(violations),
                coverage: coverage,
                costs: JourneyCostReport(
                    strategyNanos: tally.strategyNanos,
                    harnessNanos: tally.harnessNanos,
                    harnessAllocatedBytes: tally.harnessAllocatedBytes,
                    racingJourneys: tally.racingJourneys,
                    racingNanos: tally.racingNanos,
                    libcryptoBytes: tally.libcryptoBytes,
                    racingBytes: tally.racingBytes,
                    racingLibcryptoBytes: tally.racingLibcryptoBytes
                )
            )
        }
        return RunReport(
            runID: runID,
            seed: configuration.seed,
            journeys: Int(configuration.journeys),
            threads: configuration.threads,
            wallNanos: wallNanos,
            peakRSSBytes: peakRSSBytes,
            manifest: manifest,
            strategies: strategies,
            arrivals: openLoop.map {
                ArrivalReport(
                    offeredPerSecond: $0.parameters.ratePerSecond,
                    lateStarts: $0.arrivals.lateStarts,
                    dropped: $0.arrivals.dropped,
                    maxStartLagNanos: $0.arrivals.maxStartLagNanos
                )
            } ?? ArrivalReport()
        )
    }
}

extension RunResult {
    /// What this run is: its id, seed, workload and the journey indices it covered.
    package func identity(runID: String) -> RunIdentity {
        let first = configuration.firstIndex
        let (end, overflow) = first.addingReportingOverflow(configuration.journeys)
        let upper = overflow ? UInt64.max : end
        return RunIdentity(
            runID: runID,
            seed: configuration.seed,
            journeys: configuration.wholeRunJourneys ?? upper,
            journeyRanges: [first..<upper],
            strategies: configuration.strategies.map(\.rawValue),
            mixDigest: configuration.mix.digest,
            raceShare: configuration.raceShare,
            schedule: configuration.schedule.name,
            loop: configuration.openLoop.map { .open(ratePerSecond: $0.ratePerSecond, maxLagNanos: $0.maxLagNanos) }
                ?? .closed
        )
    }
}
