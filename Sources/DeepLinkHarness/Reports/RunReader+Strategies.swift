extension RunReader {
    /// Per strategy: outcomes add up to journeys; the `journey` histogram (and open loop's
    /// `journey_corrected`) holds one value per timed journey; no more violation rows than
    /// violations.
    func checkStrategies() throws(ReportError) {
        for strategy in strategies {
            var total: UInt64 = 0
            var untimed: UInt64 = 0
            var violations: UInt64 = 0
            for (key, count) in strategy.outcomeCounts {
                let (sum, overflow) = total.addingReportingOverflow(count)
                guard !overflow else {
                    throw .overflow("\(filePath(ReportSchema.outcomesFile)): the outcomes of '\(strategy.name)'")
                }
                total = sum
                // Both at most `total`, so neither overflows.
                if key.outcome == Outcome.trapped || key.outcome == Outcome.hung { untimed += count }
                if Outcome.isViolation(key.outcome) { violations += count }
            }
            guard total == UInt64(strategy.journeys) else {
                throw inconsistent(
                    ReportSchema.outcomesFile,
                    "the outcomes of '\(strategy.name)' add up to \(total), summary.csv says \(strategy.journeys) "
                        + "journeys (every journey has exactly one outcome)"
                )
            }
            let timed = total - untimed
            let isOpenLoop = identity.loop != .closed
            for metric in [Metric.journey, Metric.journeyCorrected] {
                guard let histogram = strategy.histograms[metric] else {
                    guard timed > 0, metric == Metric.journey || isOpenLoop else { continue }
                    throw inconsistent(
                        ReportSchema.histogramsFile,
                        "'\(strategy.name)' has no \(metric) histogram for its \(timed) timed journeys"
                    )
                }
                guard histogram.count == timed else {
                    throw inconsistent(
                        ReportSchema.histogramsFile,
                        "'\(strategy.name)' \(metric) holds \(histogram.count) values, but \(timed) of its "
                            + "\(strategy.journeys) journeys were timed (all but trapped and hung)"
                    )
                }
            }
            let racing = strategy.histograms[Metric.journeyRacing]?.count
            let other = strategy.histograms[Metric.journeyNonRacing]?.count
            let split = (racing ?? 0).addingReportingOverflow(other ?? 0)
            if racing != nil || other != nil,
                split.overflow || split.partialValue != timed || (racing ?? 0) != strategy.costs.racingJourneys
            {
                throw inconsistent(
                    ReportSchema.histogramsFile,
                    "'\(strategy.name)' journey_racing and journey_non_racing hold \(racing ?? 0) and \(other ?? 0) values; "
                        + "its \(timed) timed journeys, \(strategy.costs.racingJourneys) of them racing (summary.csv), "
                        + "do not split so"
                )
            }
            guard UInt64(strategy.violations.count) <= violations else {
                throw inconsistent(
                    ReportSchema.violationsFile,
                    "\(strategy.violations.count) rows for '\(strategy.name)', whose outcomes hold \(violations) "
                        + "violations"
                )
            }
        }
    }
}
