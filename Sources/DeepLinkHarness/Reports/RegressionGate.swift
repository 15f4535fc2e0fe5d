/// Compares a run (one or more repetitions) with a baseline and gives a verdict per check.
///
/// Hard checks are deterministic and fail outright: any violation of `core` (misrouted, duplicated,
/// premature or lost), any byte `core`'s racing journeys allocate (`racing_bytes`: its race
/// machinery is set up before the run, so a race allocates nothing), `bytes_per_journey` of any
/// strategy above the baseline (by more than ``allocationSlackBytesPerJourney``, the jitter of
/// racing delivery's partner threads), a strategy of the baseline missing from the run. Timing
/// checks (`journeys_per_s`, and p50/p99 of every latency metric) are noise-aware: with at least
/// two repetitions on each side a percentile-bootstrap 95 % confidence interval of the regression
/// (relative change of the medians, positive = worse) decides: *fail* when the whole interval lies
/// above the tolerance, *pass* when it lies at or below it, *inconclusive* otherwise. With a single
/// run on either side there is no noise estimate, so every timing verdict is *inconclusive* (the
/// detail says whether the observed change is within the tolerance). A run whose machine disturbed
/// it (its manifest's ``Disturbance/disturbed``) makes every timing verdict *inconclusive*: its
/// timings say more about the machine than about the code. So does a run on a machine of another
/// speed than the baseline's: when the two sides' host-speed probes (``HostSpeedProbe``, in the
/// manifests) differ by more than ``hostSpeedRatio``, every timing verdict is inconclusive too (the
/// same CPU model can run 2–3x slower on a shared VM, which the host comparison cannot see).
/// Inconclusive verdicts are reported and never fail the gate.
///
/// Thread safety: a value type; ``evaluate(baseline:current:)`` is a pure function of its input.
package struct RegressionGate: Sendable {
    /// Bytes per journey a run may allocate above its baseline and still pass: racing delivery
    /// allocates on partner threads depending on timing, which moves the average by hundredths of
    /// a byte; real growth (a new allocation on a path) moves it by whole bytes.
    package static let allocationSlackBytesPerJourney = 0.5

    /// Host-speed probes of the baseline and the current run further apart than this factor make
    /// the timings incomparable: 1.5 (the probe repeats within ~10 % on a steady machine).
    package static let hostSpeedRatio = 1.5

    /// A verdict.
    package enum Verdict: String, Sendable, Equatable {
        case pass
        case fail
        case inconclusive
    }

    /// Whether a check is deterministic (`hard`) or judged against noise (`timing`).
    package enum Kind: String, Sendable, Equatable {
        case hard
        case timing
    }

    /// One compared quantity and its verdict.
    package struct Check: Sendable, Equatable {
        package var strategy: String
        package var metric: String
        package var kind: Kind
        package var baseline: Double
        package var current: Double
        package var verdict: Verdict
        package var detail: String
        /// Why an *inconclusive* timing check could not judge; nil for every other check.
        package var doubt: Doubt? = nil

        /// `(current − baseline) / baseline × 100`, nil when the baseline is 0.
        package var changePercent: Double? { baseline == 0 ? nil : (current - baseline) / baseline * 100 }
    }

    /// Why a timing check could not judge: the noise it measured against the tolerance. The first
    /// three hold for every timing check of a gate (they describe the runs, not one quantity).
    package enum Doubt: Sendable, Equatable {
        /// The machine disturbed runs: which, and what was measured (``disturbedNote(baseline:current:)``).
        case disturbed(String)
        /// The two sides ran on machines of different speed (``hostSpeedNote(baseline:current:)``).
        case hostSpeed(String)
        /// One run on a side: no noise measured.
        case singleRun
        /// The confidence interval straddles the tolerance: the runs' spread, as measured.
        case noisy(String)
        /// A baseline of 0: no relative change.
        case zeroBaseline

        /// Whether it holds for the whole gate rather than one check.
        package var isRunWide: Bool {
            switch self {
            case .disturbed, .hostSpeed, .singleRun: true
            case .noisy, .zeroBaseline: false
            }
        }

        /// A few words for the verdict line.
        package var summary: String {
            switch self {
            case .disturbed: "the machine disturbed a run"
            case .hostSpeed: "host speed differs from the baseline's"
            case .singleRun: "one run per side, noise unknown"
            case .noisy: "noise straddles the tolerance"
            case .zeroBaseline: "baseline is 0"
            }
        }

        /// The sentence the gate's text output prints: what was measured, against what.
        package var explanation: String {
            switch self {
            case .disturbed(let note): "disturbed: \(note)"
            case .hostSpeed(let note): note
            case .singleRun:
                "one run per side: no noise measured, so no change can be told from noise (give --repetitions N, "
                    + "N >= 2, or directories of rep-1…rep-N)"
            case .noisy(let note): note
            case .zeroBaseline: "baseline is 0: no relative change"
            }
        }
    }

    /// The numbers of one run the gate compares.
    package struct RunValues: Sendable, Equatable {
        /// Strategy names in report order.
        package var strategies: [String] = []
        /// Per strategy: `journeys_per_s`, `bytes_per_journey`, `violations`, `racing_bytes`.
        package var summary: [String: [String: Double]] = [:]
        /// Per strategy, per `metric/pN` (e.g. `journey/p99`): nanoseconds.
        package var latency: [String: [String: Double]] = [:]
        /// Why the machine disturbed this run (``Disturbance/reasons``); empty when it did not.
        package var disturbances: [String] = []
        /// The machine's speed over the run (``Disturbance/hostSpeedNanos``); nil when the run
        /// took no probe.
        package var hostSpeedNanos: Double?

        package init() {}
    }

    /// Largest tolerated timing regression, as a fraction (0.1 = 10 %).
    package var timeTolerance: Double
    /// Skip timing checks (noisy CI machines).
    package var hardOnly: Bool
    /// Bootstrap resamples.
    package var resamples: Int
    /// Seed of the bootstrap's generator (verdicts are reproducible).
    package var bootstrapSeed: UInt64

    package init(timeTolerance: Double = 0.1, hardOnly: Bool = false, resamples: Int = 2000, bootstrapSeed: UInt64 = 1)
    {
        self.timeTolerance = timeTolerance
        self.hardOnly = hardOnly
        self.resamples = resamples
        self.bootstrapSeed = bootstrapSeed
    }

    /// The latency percentiles judged, as `latency.csv` writes them.
    package static let judgedPercentiles = ["50", "99"]

    /// Every check, hard ones first, in strategy order.
    package func evaluate(baseline: [RunValues], current: [RunValues]) -> [Check] {
        guard let baseRun = baseline.first, let currentRun = current.first else { return [] }
        var checks: [Check] = []
        // `core` is held to zero violations even when the baseline has no `core` row.
        let currentOnly = currentRun.strategies.filter { baseRun.summary[$0] == nil }
        for strategy in baseRun.strategies + currentOnly {
            let present = current.allSatisfy { $0.summary[strategy] != nil }
            let inBaseline = baseRun.summary[strategy] != nil
            if !present {
                checks.append(
                    Check(
                        strategy: strategy,
                        metric: "present",
                        kind: .hard,
                        baseline: 1,
                        current: 0,
                        verdict: .fail,
                        detail: "strategy missing from the current run"
                    )
                )
                continue
            }
            if strategy == "core" {
                let before = Self.median(baseline.compactMap { $0.summary[strategy]?["violations"] })
                let worst = current.compactMap { $0.summary[strategy]?["violations"] }.max() ?? 0
                checks.append(
                    Check(
                        strategy: strategy,
                        metric: "violations",
                        kind: .hard,
                        baseline: before,
                        current: worst,
                        verdict: worst > 0 ? .fail : .pass,
                        detail: worst > 0 ? "core must have zero violations" : "no violations"
                    )
                )
                let racingBytes = current.compactMap { $0.summary[strategy]?["racing_bytes"] }.max() ?? 0
                checks.append(
                    Check(
                        strategy: strategy,
                        metric: "racing_bytes",
                        kind: .hard,
                        baseline: Self.median(baseline.compactMap { $0.summary[strategy]?["racing_bytes"] }),
                        current: racingBytes,
                        verdict: racingBytes > 0 ? .fail : .pass,
                        detail: racingBytes > 0
                            ? "core's racing journeys must allocate nothing" : "racing allocates nothing"
                    )
                )
            }
            guard inBaseline else { continue }
            let bytesBefore = Self.median(baseline.compactMap { $0.summary[strategy]?["bytes_per_journey"] })
            let bytesNow = Self.median(current.compactMap { $0.summary[strategy]?["bytes_per_journey"] })
            checks.append(
                Check(
                    strategy: strategy,
                    metric: "bytes_per_journey",
                    kind: .hard,
                    baseline: bytesBefore,
                    current: bytesNow,
                    verdict: bytesNow > bytesBefore + Self.allocationSlackBytesPerJourney ? .fail : .pass,
                    detail: bytesNow > bytesBefore + Self.allocationSlackBytesPerJourney
                        ? "allocates more per journey than the baseline" : "not above baseline"
                )
            )
        }
        guard !hardOnly else { return checks }
        let speed = Self.hostSpeedNote(baseline: baseline, current: current)
        let disturbed =
            Self.disturbedNote(baseline: baseline, current: current).map {
                Doubt.disturbed([$0, speed].compactMap { $0 }.joined(separator: "; "))
            } ?? speed.map(Doubt.hostSpeed)
        for strategy in baseRun.strategies where current.allSatisfy({ $0.summary[strategy] != nil }) {
            checks.append(
                timing(
                    strategy: strategy,
                    metric: "journeys_per_s",
                    higherIsBetter: true,
                    baseline: baseline.compactMap { $0.summary[strategy]?["journeys_per_s"] },
                    current: current.compactMap { $0.summary[strategy]?["journeys_per_s"] },
                    disturbed: disturbed
                )
            )
            let metrics = (baseRun.latency[strategy] ?? [:]).keys.filter { currentRun.latency[strategy]?[$0] != nil }
            for metric in metrics.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                checks.append(
                    timing(
                        strategy: strategy,
                        metric: metric,
                        higherIsBetter: false,
                        baseline: baseline.compactMap { $0.latency[strategy]?[metric] },
                        current: current.compactMap { $0.latency[strategy]?[metric] },
                        disturbed: disturbed
                    )
                )
            }
        }
        return checks
    }

    /// The verdict on one timing quantity measured `baseline.count` and `current.count` times;
    /// `disturbed` (a run-wide doubt: runs the machine disturbed, or a host-speed difference) makes
    /// it inconclusive.
    package func timing(
        strategy: String,
        metric: String,
        higherIsBetter: Bool,
        baseline: [Double],
        current: [Double],
        disturbed: Doubt? = nil
    ) -> Check {
        let before = Self.median(baseline)
        let now = Self.median(current)
        var check = Check(
            strategy: strategy,
            metric: metric,
            kind: .timing,
            baseline: before,
            current: now,
            verdict: .inconclusive,
            detail: ""
        )
        let tolerance = ReportSchema.decimal(timeTolerance * 100, digits: 1) + "%"
        guard before > 0 else {
            check.verdict = now == before ? .pass : .inconclusive
            check.detail = Doubt.zeroBaseline.explanation
            if check.verdict == .inconclusive { check.doubt = .zeroBaseline }
            return check
        }
        // In the detail a change has change_pct's sign; which direction is worse is said beside it.
        let worse = higherIsBetter ? "lower is worse" : "higher is worse"
        let change = "change \(Self.percent((now - before) / before)) (\(worse))"
        let regression = Self.regression(baseline: before, current: now, higherIsBetter: higherIsBetter)
        if let disturbed {
            check.verdict = .inconclusive
            check.doubt = disturbed
            check.detail = "\(disturbed.explanation); \(change) not judged"
            return check
        }
        guard baseline.count >= 2, current.count >= 2 else {
            let observed = regression <= timeTolerance ? "within" : "beyond"
            check.verdict = .inconclusive
            check.doubt = .singleRun
            check.detail =
                "single run per side: \(change) \(observed) tolerance \(tolerance), noise unknown (give repetitions)"
            return check
        }
        let (low, high) = bootstrapInterval(baseline: baseline, current: current, higherIsBetter: higherIsBetter)
        // The interval of the regression (positive = worse) as an interval of the change.
        let (lowChange, highChange) = higherIsBetter ? (-high, -low) : (low, high)
        let interval = "95% CI of the change [\(Self.percent(lowChange)), \(Self.percent(highChange))] (\(worse))"
        if low > timeTolerance {
            check.verdict = .fail
            check.detail = "\(interval) beyond tolerance \(tolerance)"
        } else if high <= timeTolerance {
            check.verdict = .pass
            check.detail = "\(interval) within tolerance \(tolerance)"
        } else {
            check.verdict = .inconclusive
            check.detail = "\(interval) straddles tolerance \(tolerance)"
            check.doubt = .noisy(
                "\(interval) straddles tolerance \(tolerance): baseline spread \(Self.spread(baseline)), current "
                    + "spread \(Self.spread(current))"
            )
        }
        return check
    }

    /// `±12.3%`: half the range of `values` relative to their median (how far the runs scatter).
    static func spread(_ values: [Double]) -> String {
        let middle = median(values)
        guard middle > 0, let low = values.min(), let high = values.max() else { return "unknown" }
        return "±" + ReportSchema.decimal((high - low) / 2 / middle * 100, digits: 1) + "%"
    }

    /// The percentile-bootstrap 95 % interval of the regression of the medians.
    ///
    /// - Complexity: O(resamples · n log n).
    func bootstrapInterval(baseline: [Double], current: [Double], higherIsBetter: Bool) -> (Double, Double) {
        var random = SplitMix64(seed: bootstrapSeed)
        func next() -> UInt64 { random.next() }
        func resample(_ values: [Double]) -> [Double] {
            values.indices.map { _ in values[Int(next() % UInt64(values.count))] }
        }
        var regressions: [Double] = []
        regressions.reserveCapacity(resamples)
        for _ in 0..<Swift.max(resamples, 1) {
            let before = Self.median(resample(baseline))
            let now = Self.median(resample(current))
            guard before > 0 else { continue }
            regressions.append(Self.regression(baseline: before, current: now, higherIsBetter: higherIsBetter))
        }
        guard !regressions.isEmpty else { return (-.infinity, .infinity) }
        regressions.sort()
        let low = regressions[Int(Double(regressions.count - 1) * 0.025)]
        let high = regressions[Int((Double(regressions.count - 1) * 0.975).rounded(.up))]
        return (low, high)
    }

    /// Relative change towards worse: positive when `current` is worse than `baseline`.
    static func regression(baseline: Double, current: Double, higherIsBetter: Bool) -> Double {
        higherIsBetter ? (baseline - current) / baseline : (current - baseline) / baseline
    }

    /// "1 of 3 baseline runs (…), 2 of 3 current runs (…)" for the disturbed runs; nil when none is.
    static func disturbedNote(baseline: [RunValues], current: [RunValues]) -> String? {
        var parts: [String] = []
        for (side, runs) in [("baseline", baseline), ("current", current)] {
            let disturbed = runs.filter { !$0.disturbances.isEmpty }
            guard let first = disturbed.first else { continue }
            parts.append(
                "\(disturbed.count) of \(runs.count) \(side) runs (\(first.disturbances.joined(separator: "; ")))"
            )
        }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// "host speed differs from the baseline's (…)" when the median probes of the two sides are
    /// further apart than ``hostSpeedRatio``; nil when they are not, or a side took no probe.
    static func hostSpeedNote(baseline: [RunValues], current: [RunValues]) -> String? {
        let before = baseline.compactMap(\.hostSpeedNanos)
        let now = current.compactMap(\.hostSpeedNanos)
        guard !before.isEmpty, !now.isEmpty else { return nil }
        let (base, here) = (median(before), median(now))
        guard HostSpeedProbe.differ(base, here, byMoreThan: hostSpeedRatio) else { return nil }
        return "host-speed probes \(ReportSchema.decimal(max(base, here) / min(base, here), digits: 1))x apart: "
            + "host speed differs from the baseline's (a fixed probe round took "
            + "\(ReportSchema.decimal(here, digits: 1)) ns here, \(ReportSchema.decimal(base, digits: 1)) ns "
            + "in the baseline; threshold \(ReportSchema.decimal(hostSpeedRatio, digits: 1))x)"
    }

    /// The median (mean of the middle two for an even count); 0 for no values.
    package static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    static func percent(_ fraction: Double) -> String {
        guard fraction.isFinite else { return fraction > 0 ? "+inf%" : "-inf%" }
        let text = ReportSchema.decimal(fraction * 100, digits: 1) + "%"
        return fraction >= 0 ? "+" + text : text
    }
}
