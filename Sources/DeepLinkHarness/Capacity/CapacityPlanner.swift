/// Finds, for each thread count, the highest arrival rate whose p99 journey latency (from intended
/// start, open loop) stays within the objective with nothing dropped: the rate doubles from a
/// start until a step fails (or halves until one holds), then bisects between the last rate that
/// held and the first that failed.
///
/// The measurement is injected (``sweep(_:measure:progress:)``), so the search is testable without
/// timing; ``measure(_:sweep:)`` is the real one (an open-loop ``Runner`` run of one strategy).
///
/// Thread safety: stateless; a sweep blocks its caller.
package enum CapacityPlanner {
    /// Halvings tried when even the first rate fails, before giving up on a thread count.
    static let maximumHalvings = 6

    /// Runs `sweep`, calling `progress` after every step.
    package static func sweep(
        _ sweep: CapacitySweep,
        measure: (CapacityProbe) -> CapacityStep,
        progress: (CapacityStep) -> Void = { _ in }
    ) -> CapacityResult {
        var steps: [CapacityStep] = []
        // Each step continues the journey index space, so steps see new journeys.
        var nextIndex: UInt64 = 0
        func run(threads: Int, rate: Double) -> Bool {
            let journeys = max(sweep.minimumJourneysPerStep, UInt64(min(rate * sweep.stepSeconds, 1e12)))
            let step = measure(
                CapacityProbe(threads: threads, offeredPerSecond: rate, journeys: journeys, firstIndex: nextIndex)
            )
            nextIndex &+= journeys
            steps.append(step)
            progress(step)
            return step.meets(sloP99Nanos: sweep.sloP99Nanos)
        }
        for threads in sweep.threadCounts where threads >= 1 {
            var rate = min(sweep.maximumRate, max(1, (sweep.startRatePerThread * Double(threads)).rounded()))
            var held: Double?
            var failed: Double?
            while true {
                if run(threads: threads, rate: rate) {
                    held = rate
                    guard rate < sweep.maximumRate else { break }
                    rate = min(sweep.maximumRate, rate * 2)
                } else {
                    failed = rate
                    break
                }
            }
            if held == nil {
                for _ in 0..<maximumHalvings {
                    rate = (rate / 2).rounded(.down)
                    guard rate >= 1 else { break }
                    if run(threads: threads, rate: rate) {
                        held = rate
                        break
                    }
                    failed = rate
                }
            }
            if var low = held, var high = failed {
                for _ in 0..<sweep.refinements {
                    let middle = ((low + high) / 2).rounded()
                    guard middle > low, middle < high else { break }
                    if run(threads: threads, rate: middle) { low = middle } else { high = middle }
                }
            }
        }
        var result = CapacityResult(sweep: sweep, steps: steps)
        result.markInconsistentSteps()
        return result
    }

    /// Measures one probe for real: an open-loop run of `sweep.strategy` alone (race share 0, so
    /// one thread serves each journey), read from the run's tallies.
    package static func measure(_ probe: CapacityProbe, sweep: CapacitySweep) -> CapacityStep {
        var configuration = RunConfiguration(
            journeys: probe.journeys,
            firstIndex: probe.firstIndex,
            seed: sweep.seed,
            threads: probe.threads,
            strategies: [sweep.strategy],
            raceShare: 0,
            mix: sweep.mix,
            violationLimit: 0
        )
        configuration.openLoop = OpenLoopParameters(
            ratePerSecond: probe.offeredPerSecond,
            maxLagNanos: sweep.maxLagNanos
        )
        configuration.disturbanceSource = sweep.disturbanceSource
        return step(from: Runner.run(configuration), probe: probe)
    }

    /// The capacity.csv row of a finished open-loop run.
    static func step(from result: RunResult, probe: CapacityProbe) -> CapacityStep {
        let tally = result.tallies.first
        let corrected = result.openLoop?.correctedJourneyNanos.first ?? Histogram()
        let started = result.openLoop?.arrivals.started ?? (tally?.journeys ?? 0)
        let busy = Double(tally?.strategyNanos ?? 0)
        let harness = Double(tally?.harnessNanos ?? 0)
        let journeys = Double(tally?.journeys ?? 0)
        return CapacityStep(
            threads: probe.threads,
            offeredPerSecond: probe.offeredPerSecond,
            achievedPerSecond: result.wallNanos == 0 ? 0 : Double(started) * 1e9 / Double(result.wallNanos),
            p50Nanos: corrected.value(atPercentile: 50),
            p99Nanos: corrected.value(atPercentile: 99),
            p999Nanos: corrected.value(atPercentile: 99.9),
            dropped: result.openLoop?.arrivals.dropped ?? 0,
            bytesPerJourney: journeys == 0 ? 0 : Double(tally?.allocatedBytes ?? 0) / journeys,
            meanServiceNanos: journeys == 0 ? 0 : busy / journeys,
            harnessShare: busy + harness == 0 ? 0 : harness / (busy + harness),
            disturbance: result.disturbance
        )
    }
}
