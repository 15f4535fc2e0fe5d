/// Combines the reports of the shards of one run (`deeplink-bench run --shard i/n`) into the
/// report of the whole run: counters and bytes summed, histograms merged exactly, violations
/// united (the writer keeps the lowest journey indices, which the shards' own first 1,000 contain,
/// so the merged violations.csv equals an unsharded run's), manifests combined.
///
/// Run-level fields: `journeys` summed; `wallNanos` and each strategy's wall time the largest
/// (shards run side by side), so `journeys_per_s` is the aggregate rate; `threads` the largest;
/// peak RSS the largest (per machine). Shards must share the seed (else they are not one run).
///
/// Thread safety: stateless.
public enum ReportMerger {
    /// The merged report of `reports` (at least one).
    ///
    /// - Parameters:
    ///   - sources: the directories they were read from, recorded in the manifest.
    ///   - commandLine: the merge's own command line, recorded in the manifest.
    public static func merge(
        _ reports: [RunReport],
        sources: [String],
        commandLine: [String]
    ) throws(ReportError)
        -> RunReport
    {
        guard let first = reports.first else { throw .incompatible("nothing to merge: no report directories given") }
        for (index, report) in reports.enumerated() where report.seed != first.seed {
            let source = index < sources.count ? sources[index] : "report \(index)"
            throw .incompatible("\(source) has seed \(report.seed), the first report has \(first.seed): not one run")
        }
        try checkShards(reports.map(\.manifest.shard), sources: sources)
        var strategies: [StrategyReport] = []
        for report in reports {
            for strategy in report.strategies {
                guard let index = strategies.firstIndex(where: { $0.name == strategy.name }) else {
                    strategies.append(strategy)
                    continue
                }
                strategies[index].journeys += strategy.journeys
                strategies[index].wallNanos = Swift.max(strategies[index].wallNanos, strategy.wallNanos)
                strategies[index].allocatedBytes &+= strategy.allocatedBytes
                for (key, count) in strategy.outcomeCounts {
                    strategies[index].outcomeCounts[key, default: 0] &+= count
                }
                for (metric, histogram) in strategy.histograms {
                    strategies[index].histograms[metric, default: Histogram()].merge(histogram)
                }
                for (key, count) in strategy.coverage {
                    strategies[index].coverage[key, default: 0] &+= count
                }
                strategies[index].violations += strategy.violations
            }
        }
        for index in strategies.indices {
            // The same journey twice (inputs that overlap) is reported once.
            var seen = Set<[UInt64]>()
            strategies[index].violations = strategies[index].violations.filter {
                seen.insert([$0.seed, $0.journey]).inserted
            }
        }
        var arrivals = ArrivalReport()
        for report in reports { arrivals.merge(report.arrivals) }
        let runIDs = unique(reports.map(\.runID))
        return RunReport(
            runID: runIDs.count == 1 ? runIDs[0] : runIDs.joined(separator: "+"),
            seed: first.seed,
            journeys: reports.reduce(0) { $0 + $1.journeys },
            threads: reports.map(\.threads).max() ?? 0,
            wallNanos: reports.map(\.wallNanos).max() ?? 0,
            peakRSSBytes: reports.map(\.peakRSSBytes).max() ?? 0,
            manifest: combine(reports.map(\.manifest), sources: sources, commandLine: commandLine),
            strategies: strategies,
            arrivals: arrivals
        )
    }

    /// Rejects shard labels (`i/n` from the manifests) that cannot belong to one sharded run: a
    /// malformed label, different `n`s, or the same shard twice. Inputs without a label pass.
    public static func checkShards(_ shards: [String?], sources: [String]) throws(ReportError) {
        var total: Int?
        var seen: [Int: String] = [:]
        for (position, label) in shards.enumerated() {
            guard let label else { continue }
            let source = position < sources.count ? sources[position] : "report \(position)"
            guard let (index, count) = parseShard(label) else {
                throw .incompatible("\(source): manifest shard '\(label)' is not i/n")
            }
            if let total, total != count {
                throw .incompatible("\(source) is shard \(label) but another input is a shard of \(total)")
            }
            total = count
            if let other = seen[index] { throw .incompatible("shard \(label) given twice: \(other) and \(source)") }
            seen[index] = source
        }
    }

    /// The shards of the run missing from `shards` (e.g. `["2/4"]`); empty when complete or when no
    /// input carries a shard label.
    public static func missingShards(_ shards: [String?]) -> [String] {
        let parsed = shards.compactMap { $0.flatMap(parseShard) }
        guard let count = parsed.first?.1 else { return [] }
        let present = Set(parsed.map(\.0))
        return (0..<count).filter { !present.contains($0) }.map { "\($0)/\(count)" }
    }

    /// `i/n` with 0 ≤ i < n.
    static func parseShard(_ label: String) -> (Int, Int)? {
        let parts = label.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count > 0, index >= 0,
            index < count
        else { return nil }
        return (index, count)
    }

    /// One manifest for merged shards: each field kept when equal everywhere, else the distinct
    /// values joined with " | "; start time the earliest; `mergedFrom` the sources.
    public static func combine(_ manifests: [RunManifest], sources: [String], commandLine: [String]) -> RunManifest {
        func joined(_ values: [String]) -> String { unique(values).joined(separator: " | ") }
        let cores = unique(manifests.map { String($0.cores) })
        return RunManifest(
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
    }

    private static func unique(_ values: [String]) -> [String] {
        var seen = Set<String>()
        return values.filter { seen.insert($0).inserted }
    }
}
