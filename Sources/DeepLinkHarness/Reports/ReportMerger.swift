/// Combines the reports of the shards of one run (`deeplink-bench run --shard i/n`) into the
/// report of the whole run: counters and bytes summed, histograms merged exactly, violations
/// united (the writer keeps the lowest journey indices, which the shards' own first 1,000 contain,
/// so the merged violations.csv equals an unsharded run's), manifests combined.
///
/// What may be merged is decided by run identity (``RunIdentity``), never by path: every input
/// must be of one workload (seed, `--journeys`, strategies, mix, race share, loop) and one binary
/// commit, and their journey ranges must be disjoint and, unless a partial merge is asked for,
/// cover `0..<journeys` exactly once. So the same run given twice, a run beside its own shards,
/// or a merged report beside one of its shards are refused, as are shards of different runs.
/// Every sum is checked: a total beyond 64 bits is ``ReportError/overflow(_:)``, never a wrap.
///
/// Run-level fields: `journeys` summed; `wallNanos` and each strategy's wall time the largest
/// (shards run side by side), so `journeys_per_s` is the aggregate rate; `threads` the largest;
/// peak RSS the largest (per machine); an open loop's rate the sum of the shards' rates; the
/// disturbance readings merged (``Disturbance/merging(_:)``).
///
/// Thread safety: stateless.
package enum ReportMerger {
    /// The merged report of `reports` (at least one).
    ///
    /// - Parameters:
    ///   - sources: the directories they were read from, named in errors and recorded in the
    ///     manifest.
    ///   - commandLine: the merge's own command line, recorded in the manifest.
    ///   - allowPartial: merge even when some journeys of the run are in no input
    ///     (`merge --partial`); the result records the ranges it covers.
    package static func merge(
        _ reports: [RunReport],
        sources: [String],
        commandLine: [String],
        allowPartial: Bool = false
    ) throws(ReportError) -> RunReport {
        guard let first = reports.first else { throw .incompatible("nothing to merge: no report directories given") }
        func source(_ index: Int) -> String { index < sources.count ? sources[index] : "report \(index)" }
        let identities = try checkOneRun(reports, source: source)
        let ranges = try checkTiling(identities, reports: reports, source: source, allowPartial: allowPartial)

        var strategies = first.strategies.map { StrategyReport(name: $0.name) }
        var journeys = 0
        var arrivals = ArrivalReport()
        for (position, report) in reports.enumerated() {
            let (sum, overflow) = journeys.addingReportingOverflow(report.journeys)
            guard !overflow else { throw .overflow("the run's journeys summed up to \(source(position))") }
            journeys = sum
            guard let merged = arrivals.merging(report.arrivals) else {
                throw .overflow("late_starts or dropped summed up to \(source(position))")
            }
            arrivals = merged
            for (index, strategy) in report.strategies.enumerated() {
                try add(strategy, to: &strategies[index], from: source(position))
            }
        }
        var identity = identities[0]
        identity.runID = unique(reports.map(\.runID)).joined(separator: "+")
        identity.journeyRanges = ranges
        if case .open(_, let maxLag) = identity.loop {
            let rate = identities.reduce(0.0) { total, each in
                if case .open(let shardRate, _) = each.loop { return total + shardRate }
                return total
            }
            identity.loop = .open(ratePerSecond: rate, maxLagNanos: maxLag)
        }
        var manifest = combine(reports.map(\.manifest), sources: sources, commandLine: commandLine)
        manifest.run = identity
        manifest.shards = reports.enumerated().map { ShardContribution($0.element, source: source($0.offset)) }
        var disturbance = Disturbance()
        for (position, report) in reports.enumerated() {
            guard let merged = disturbance.merging(report.manifest.disturbance ?? Disturbance()) else {
                throw .overflow("steal_ns or involuntary_switches summed up to \(source(position))")
            }
            disturbance = merged
        }
        manifest.disturbance = disturbance
        var merged = RunReport(
            runID: identity.runID,
            seed: first.seed,
            journeys: journeys,
            threads: reports.map(\.threads).max() ?? 0,
            wallNanos: reports.map(\.wallNanos).max() ?? 0,
            peakRSSBytes: reports.map(\.peakRSSBytes).max() ?? 0,
            manifest: manifest,
            strategies: strategies,
            arrivals: arrivals
        )
        // The shards of one `run --threshold …` share its thresholds: judged again on the whole.
        if let first = reports.first, reports.allSatisfy({ $0.thresholds == first.thresholds }) {
            merged.thresholds = first.thresholds
        }
        return merged
    }

    /// The inputs' identities, after checking they are of one workload and one commit.
    static func checkOneRun(
        _ reports: [RunReport],
        source: (Int) -> String
    ) throws(ReportError) -> [RunIdentity] {
        var identities: [RunIdentity] = []
        for (position, report) in reports.enumerated() {
            guard let identity = report.manifest.run else {
                throw .incompatible(
                    "\(source(position)) names no run in its manifest.json (written before reports named "
                        + "their run); run that shard again"
                )
            }
            identities.append(identity)
        }
        let base = identities[0]
        for (position, identity) in identities.enumerated().dropFirst() {
            var comparable = identity
            // Open-loop shards may offer different rates (their sum is the run's); the rest must agree.
            if case .open(_, let maxLag) = identity.loop, case .open(let baseRate, _) = base.loop {
                comparable.loop = .open(ratePerSecond: baseRate, maxLagNanos: maxLag)
            }
            if let difference = comparable.differences(from: base, includingCoverage: false).first {
                throw .incompatible(
                    "\(source(position)) and \(source(0)) are not shards of one run: \(difference) "
                        + "(\(source(position))'s first); merge only the shards of one run (same --seed, --journeys, "
                        + "\(Option.strategies.name), --mix, --race-share, --schedule and loop)"
                )
            }
            let names = reports[position].strategies.map(\.name)
            guard names == reports[0].strategies.map(\.name) else {
                throw .incompatible(
                    "\(source(position)) reports strategies \(names.joined(separator: ",")), \(source(0)) "
                        + reports[0].strategies.map(\.name).joined(separator: ",") + ": not shards of one run"
                )
            }
            let commit = reports[position].manifest.commit
            guard commit == reports[0].manifest.commit else {
                throw .incompatible(
                    "\(source(position)) was written by commit \(commit), \(source(0)) by "
                        + "\(reports[0].manifest.commit): shards of one run come from one binary; rerun the odd one"
                )
            }
        }
        return identities
    }

    /// The union of the inputs' journey ranges, coalesced, after checking they overlap nowhere
    /// and (unless `allowPartial`) cover `0..<journeys`.
    static func checkTiling(
        _ identities: [RunIdentity],
        reports: [RunReport],
        source: (Int) -> String,
        allowPartial: Bool
    ) throws(ReportError) -> [Range<UInt64>] {
        var pieces: [(range: Range<UInt64>, input: Int)] = []
        for (position, identity) in identities.enumerated() {
            pieces += identity.journeyRanges.map { ($0, position) }
        }
        pieces.sort { $0.range.lowerBound < $1.range.lowerBound }
        var union: [Range<UInt64>] = []
        var previous: (range: Range<UInt64>, input: Int)?
        for piece in pieces {
            if let previous, piece.range.lowerBound < previous.range.upperBound {
                let overlap = piece.range.lowerBound..<min(piece.range.upperBound, previous.range.upperBound)
                let which =
                    previous.input == piece.input
                    ? "\(source(piece.input)) covers them twice"
                    : "\(source(previous.input)) and \(source(piece.input)) both cover them"
                throw .incompatible(
                    "journeys \(RunIdentity.describe([overlap])) would be counted twice: \(which) "
                        + "(the same run given twice, or a run beside its own shard or merged report); give each "
                        + "shard once"
                )
            }
            if let last = union.last, last.upperBound == piece.range.lowerBound {
                union[union.count - 1] = last.lowerBound..<piece.range.upperBound
            } else {
                union.append(piece.range)
            }
            previous = piece
        }
        let whole = identities[0].journeys
        let gaps = missing(union, of: whole)
        if !gaps.isEmpty, !allowPartial {
            throw .incompatible(
                "journeys \(RunIdentity.describe(gaps)) of the run's \(whole) are in no input"
                    + missingShardNote(reports.map(\.manifest.shard), gaps: gaps, journeys: whole)
                    + "; give every shard, or pass --partial to merge what is there (the result then records "
                    + "the journeys it covers)"
            )
        }
        return union
    }

    /// The parts of `0..<journeys` that `union` (sorted, disjoint) leaves out.
    package static func missing(_ union: [Range<UInt64>], of journeys: UInt64) -> [Range<UInt64>] {
        var gaps: [Range<UInt64>] = []
        var next: UInt64 = 0
        for range in union {
            if range.lowerBound > next { gaps.append(next..<range.lowerBound) }
            next = max(next, range.upperBound)
        }
        if next < journeys { gaps.append(next..<journeys) }
        return gaps
    }

    /// ` (shards 1/4, 3/4 missing)` when every input is a shard of the same `n`; else empty.
    static func missingShardNote(_ labels: [String?], gaps: [Range<UInt64>], journeys: UInt64) -> String {
        let shards = labels.compactMap { $0.flatMap { try? ShardSpec.parse($0) } }
        guard shards.count == labels.count, let count = shards.first?.count, shards.allSatisfy({ $0.count == count })
        else { return "" }
        let absent = (0..<count).compactMap { ShardSpec(index: $0, count: count) }.filter { shard in
            let range = shard.range(ofJourneys: journeys)
            return gaps.contains { $0.overlaps(range) }
        }
        return " (shards \(absent.map(\.description).joined(separator: ", ")) missing)"
    }

    /// Adds `strategy` (of input `source`) into `total`, every sum checked.
    static func add(_ strategy: StrategyReport, to total: inout StrategyReport, from source: String) throws(ReportError)
    {
        func sum(_ a: UInt64, _ b: UInt64, _ what: String) throws(ReportError) -> UInt64 {
            let (value, overflow) = a.addingReportingOverflow(b)
            guard !overflow else { throw .overflow("\(strategy.name) \(what) summed up to \(source)") }
            return value
        }
        let (journeys, overflow) = total.journeys.addingReportingOverflow(strategy.journeys)
        guard !overflow else { throw .overflow("\(strategy.name) journeys summed up to \(source)") }
        total.journeys = journeys
        total.wallNanos = Swift.max(total.wallNanos, strategy.wallNanos)
        total.allocatedBytes = try sum(total.allocatedBytes, strategy.allocatedBytes, "allocated_bytes")
        guard let costs = total.costs.merging(strategy.costs) else {
            throw .overflow("\(strategy.name) strategy or harness time summed up to \(source)")
        }
        total.costs = costs
        for (key, count) in strategy.outcomeCounts {
            total.outcomeCounts[key] = try sum(total.outcomeCounts[key, default: 0], count, "outcome \(key.outcome)")
        }
        for (key, count) in strategy.coverage {
            total.coverage[key] = try sum(total.coverage[key, default: 0], count, "coverage \(key.name)")
        }
        for (metric, histogram) in strategy.histograms {
            var merged = total.histograms[metric, default: Histogram()]
            // Bucket counts add up to the count (checked when read), so a count that fits means
            // every bucket fits.
            _ = try sum(merged.count, histogram.count, "histogram \(metric) count")
            merged.merge(histogram)
            total.histograms[metric] = merged
        }
        total.violations += strategy.violations
    }

    /// One manifest for merged shards: each field kept when equal everywhere, else the distinct
    /// values joined with " | "; start time the earliest; `mergedFrom` the sources. ``RunManifest/run``
    /// is left to ``merge(_:sources:commandLine:allowPartial:)``.
    package static func combine(_ manifests: [RunManifest], sources: [String], commandLine: [String]) -> RunManifest {
        func joined(_ values: [String]) -> String { unique(values).joined(separator: " | ") }
        let cores = unique(manifests.map { String($0.cores) })
        var manifest = RunManifest(
            commit: joined(manifests.map(\.commit)),
            toolchain: joined(manifests.map(\.toolchain)),
            cpuModel: joined(manifests.map(\.cpuModel)),
            cores: cores.count == 1 ? (manifests.first?.cores ?? 0) : (manifests.map(\.cores).max() ?? 0),
            allocator: joined(manifests.map(\.allocator)),
            commandLine: commandLine,
            startTime: manifests.map(\.startTime).min { ReportSchema.precedes($0, $1) } ?? "",
            shard: nil,
            mergedFrom: sources
        )
        let clocks = manifests.compactMap(\.operationClock)
        manifest.operationClock = clocks.isEmpty ? nil : joined(clocks)
        return manifest
    }

    private static func unique(_ values: [String]) -> [String] {
        var seen = Set<String>()
        return values.filter { seen.insert($0).inserted }
    }
}
