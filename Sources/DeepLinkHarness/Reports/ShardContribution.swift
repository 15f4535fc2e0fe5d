/// What one input of a merged report brought to it (`manifest.json`'s `shards`): its directory,
/// its shard label, the journeys it ran, its wall time and each strategy's violations. `merge`
/// records one per input, so a merged report shows where its counts came from (a slow or
/// violating shard) without its inputs at hand.
///
/// Thread safety: a value type.
package struct ShardContribution: Sendable, Equatable, Codable {
    /// The input directory, as given to `merge`.
    package var source: String
    /// `i/n`, or nil for an input that was not one shard (a whole run or a merged report).
    package var shard: String?
    /// Journeys per strategy it ran.
    package var journeys: Int
    package var wallNanos: UInt64
    /// Violations by strategy name.
    package var violations: [String: UInt64]

    package init(source: String, shard: String?, journeys: Int, wallNanos: UInt64, violations: [String: UInt64]) {
        self.source = source
        self.shard = shard
        self.journeys = journeys
        self.wallNanos = wallNanos
        self.violations = violations
    }

    /// The contribution of `report`, read from `source`.
    package init(_ report: RunReport, source: String) {
        self.init(
            source: source,
            shard: report.manifest.shard,
            journeys: report.strategies.map(\.journeys).max() ?? 0,
            wallNanos: report.wallNanos,
            violations: Dictionary(report.strategies.map { ($0.name, $0.violationCount) }) { first, _ in first }
        )
    }

    enum CodingKeys: String, CodingKey {
        case source
        case shard
        case journeys
        case wallNanos = "wall_ns"
        case violations
    }
}
