/// What else the machine did during one measurement (a run, or one capacity step), and whether
/// that makes its timings untrustworthy (`disturbed`).
///
/// Three readings, taken at the start, every ~100 ms and at the end (``DisturbanceMonitor``):
/// - `steal_ns`: CPU time the hypervisor gave to other guests during the measurement, all CPUs;
/// - `involuntary_switches`: times this process's threads were preempted;
/// - `other_runnable`: the mean number of runnable threads that were not this process's;
/// - `probe_start_ns`, `probe_end_ns` (manifest.json; capacity.csv per step): ``HostSpeedProbe``'s
///   time for a fixed round of work, before and after the measurement (not during: it would compete
///   with the workers).
///
/// The run is `disturbed` when any of the first three passes ``Thresholds`` (see there), when the
/// probe took more than ``Thresholds/probeDrift`` times as long at one end as at the other (the
/// machine changed speed during the measurement), or when something outside the readings says so
/// (a capacity step that disagrees with its neighbours: ``CapacityResult``). A disturbed timing is
/// reported but never judged (`gate`).
///
/// Thread safety: a value type.
package struct Disturbance: Sendable, Equatable, Codable {
    package var stealNanos: UInt64
    package var involuntarySwitches: UInt64
    /// Mean runnable threads other than ours over the readings.
    package var otherRunnable: Double
    /// ``HostSpeedProbe``'s nanoseconds per round before the measurement; nil when not taken.
    package var probeStartNanos: Double?
    /// ``HostSpeedProbe``'s nanoseconds per round after the measurement; nil when not taken.
    package var probeEndNanos: Double?
    package var disturbed: Bool
    /// Why it is disturbed, one sentence per reason (empty when it is not).
    package var reasons: [String]

    package init(
        stealNanos: UInt64 = 0,
        involuntarySwitches: UInt64 = 0,
        otherRunnable: Double = 0,
        probeStartNanos: Double? = nil,
        probeEndNanos: Double? = nil,
        disturbed: Bool = false,
        reasons: [String] = []
    ) {
        self.stealNanos = stealNanos
        self.involuntarySwitches = involuntarySwitches
        self.otherRunnable = otherRunnable
        self.probeStartNanos = probeStartNanos
        self.probeEndNanos = probeEndNanos
        self.disturbed = disturbed
        self.reasons = reasons
    }

    /// When readings mark a measurement disturbed.
    ///
    /// Thread safety: a value type.
    package struct Thresholds: Sendable, Equatable {
        /// Steal above this share of the machine's CPU time (wall × cores): 2 %.
        package var stealShare: Double = 0.02
        /// Involuntary context switches above this many per second per thread the measurement
        /// ran: 50 (an undisturbed CPU-bound thread sees a few per second; one sharing its core
        /// with another busy thread, hundreds).
        package var switchesPerThreadSecond: Double = 50
        /// Other runnable threads above the cores the measurement left free (cores − threads),
        /// on average, by more than this: 0.5.
        package var otherRunnableSlack: Double = 0.5
        /// The host-speed probe slower at one end of the measurement than at the other by more
        /// than this factor: 1.5 (the fastest of seven samples repeats within ~10 % on a steady
        /// machine; the slow-downs it is there for were 2–3x).
        package var probeDrift: Double = 1.5

        package init() {}
    }

    /// The disturbance between `start` and `end` readings with `samples` (every reading, start and
    /// end included) over `wallNanos` of a measurement on `threads` threads of a `cores`-core
    /// machine, with the host-speed probe's times before and after it (nil: not taken), judged by
    /// `thresholds`.
    package init(
        start: DisturbanceReading,
        end: DisturbanceReading,
        samples: [DisturbanceReading],
        wallNanos: UInt64,
        threads: Int,
        cores: Int,
        probeStartNanos: Double? = nil,
        probeEndNanos: Double? = nil,
        thresholds: Thresholds = Thresholds()
    ) {
        stealNanos = end.stealNanos > start.stealNanos ? end.stealNanos - start.stealNanos : 0
        involuntarySwitches =
            end.involuntarySwitches > start.involuntarySwitches
            ? end.involuntarySwitches - start.involuntarySwitches : 0
        let readings = samples.isEmpty ? [start, end] : samples
        // Rounded as summary.csv writes it, so a report read back equals the one written.
        otherRunnable =
            (Double(readings.reduce(0) { $0 + $1.otherRunnable }) / Double(readings.count) * 100)
            .rounded() / 100
        // Rounded to hundredths, as manifest.json is read.
        self.probeStartNanos = probeStartNanos.map { ($0 * 100).rounded() / 100 }
        self.probeEndNanos = probeEndNanos.map { ($0 * 100).rounded() / 100 }
        reasons = []
        let seconds = Double(wallNanos) / 1e9
        let machine = Double(wallNanos) * Double(max(1, cores))
        if machine > 0, Double(stealNanos) > thresholds.stealShare * machine {
            reasons.append(
                "steal \(ReportSchema.decimal(Double(stealNanos) / machine * 100, digits: 1))% of CPU time "
                    + "(threshold \(ReportSchema.decimal(thresholds.stealShare * 100, digits: 1))%)"
            )
        }
        let perThreadSecond = seconds > 0 ? Double(involuntarySwitches) / seconds / Double(max(1, threads)) : 0
        if perThreadSecond > thresholds.switchesPerThreadSecond {
            reasons.append(
                "\(ReportSchema.decimal(perThreadSecond, digits: 0)) involuntary context switches per thread-second "
                    + "(threshold \(ReportSchema.decimal(thresholds.switchesPerThreadSecond, digits: 0)))"
            )
        }
        let free = Double(max(0, cores - threads))
        if otherRunnable > free + thresholds.otherRunnableSlack {
            reasons.append(
                "\(ReportSchema.decimal(otherRunnable, digits: 2)) other runnable threads on average, "
                    + "\(ReportSchema.decimal(free, digits: 0)) cores free (threshold +"
                    + "\(ReportSchema.decimal(thresholds.otherRunnableSlack, digits: 1)))"
            )
        }
        if let before = self.probeStartNanos, let after = self.probeEndNanos,
            HostSpeedProbe.differ(before, after, byMoreThan: thresholds.probeDrift)
        {
            reasons.append(
                "the machine changed speed: a fixed probe round took \(ReportSchema.decimal(before, digits: 1)) ns "
                    + "before and \(ReportSchema.decimal(after, digits: 1)) ns after (threshold "
                    + "\(ReportSchema.decimal(thresholds.probeDrift, digits: 1))x)"
            )
        }
        disturbed = !reasons.isEmpty
    }

    /// The machine's speed over the measurement: the mean of the probe's times before and after
    /// (either alone when the other was not taken); nil when neither was.
    package var hostSpeedNanos: Double? {
        switch (probeStartNanos, probeEndNanos) {
        case (let before?, let after?): (before + after) / 2
        case (let only?, nil), (nil, let only?): only
        case (nil, nil): nil
        }
    }

    /// Marks this measurement disturbed for `reason` (from outside the readings).
    package mutating func mark(_ reason: String) {
        disturbed = true
        if !reasons.contains(reason) { reasons.append(reason) }
    }

    /// These readings and another measurement's (merged shards): steal and switches add up, the
    /// other runnable load and each probe time are the larger (the slower machine), disturbed when
    /// either is. Nil when a sum would pass 2^64 − 1.
    package func merging(_ other: Disturbance) -> Disturbance? {
        let (steal, stealOverflow) = stealNanos.addingReportingOverflow(other.stealNanos)
        let (switches, switchOverflow) = involuntarySwitches.addingReportingOverflow(other.involuntarySwitches)
        guard !stealOverflow, !switchOverflow else { return nil }
        var reasons = self.reasons
        for reason in other.reasons where !reasons.contains(reason) { reasons.append(reason) }
        return Disturbance(
            stealNanos: steal,
            involuntarySwitches: switches,
            otherRunnable: max(otherRunnable, other.otherRunnable),
            probeStartNanos: Self.slower(probeStartNanos, other.probeStartNanos),
            probeEndNanos: Self.slower(probeEndNanos, other.probeEndNanos),
            disturbed: disturbed || other.disturbed,
            reasons: reasons
        )
    }

    private static func slower(_ one: Double?, _ other: Double?) -> Double? {
        guard let one else { return other }
        guard let other else { return one }
        return max(one, other)
    }

    /// The columns summary.csv and capacity.csv carry, in order.
    package static let columns = ["steal_ns", "involuntary_switches", "other_runnable", "disturbed"]

    /// The host-speed probe's columns in tables with a row per measurement and no manifest of its
    /// own (capacity.csv's steps, CoreBenchmarks' comparisons), in order: before, after.
    package static let probeColumns = ["probe_start_ns", "probe_end_ns"]

    /// The values of ``probeColumns`` as written: two decimals, empty when not taken.
    package var probeFields: [String] {
        [probeStartNanos, probeEndNanos].map { nanos in nanos.map { ReportSchema.decimal($0, digits: 2) } ?? "" }
    }

    /// The values of ``columns`` as written (`other_runnable` with two decimals, `disturbed` 0/1).
    package var fields: [String] {
        [
            String(stealNanos), String(involuntarySwitches), ReportSchema.decimal(otherRunnable, digits: 2),
            disturbed ? "1" : "0",
        ]
    }

    enum CodingKeys: String, CodingKey {
        case stealNanos = "steal_ns"
        case involuntarySwitches = "involuntary_switches"
        case otherRunnable = "other_runnable"
        case probeStartNanos = "probe_start_ns"
        case probeEndNanos = "probe_end_ns"
        case disturbed
        case reasons
    }
}
