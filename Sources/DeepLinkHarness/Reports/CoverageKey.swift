/// One row of `coverage.csv`: a journey feature (`kind` `feature`), a resolver decision path
/// (`kind` `path`), a schedule point of the core (`kind` `point`) or an interleaved pair of them
/// (`kind` `pair`, `a/b`), by name.
///
/// Thread safety: a value type.
package struct CoverageKey: Sendable, Hashable {
    package var kind: String
    package var name: String

    package init(kind: String, name: String) {
        self.kind = kind
        self.name = name
    }

    package static let feature = "feature"
    package static let path = "path"
    package static let point = "point"
    package static let pair = "pair"

    /// The kinds in report order, each with its names in the order the harness defines them.
    private static let orderedKinds: [(kind: String, names: [String: Int])] = [
        (feature, CoverageCounts.featureNames), (path, DecisionPaths.named.map(\.name)),
        (point, ScheduleCoverage.pointNames), (pair, ScheduleCoverage.pairNames),
    ].map { kind, names in
        (kind, Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first }))
    }

    /// Report order: features, paths, points, then pairs, each in the order the harness defines
    /// them (kinds and names it does not know last, in byte order).
    static func precedes(_ lhs: CoverageKey, _ rhs: CoverageKey) -> Bool {
        func rank(_ key: CoverageKey) -> (Int, Int) {
            guard let kindRank = orderedKinds.firstIndex(where: { $0.kind == key.kind }) else {
                return (orderedKinds.count, 0)
            }
            let names = orderedKinds[kindRank].names
            return (kindRank, names[key.name] ?? names.count)
        }
        let (left, right) = (rank(lhs), rank(rhs))
        if left != right { return left < right }
        if lhs.kind != rhs.kind { return ReportSchema.precedes(lhs.kind, rhs.kind) }
        return ReportSchema.precedes(lhs.name, rhs.name)
    }
}
