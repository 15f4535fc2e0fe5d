/// Journeys per feature, per decision path, per schedule point and per interleaved pair of points:
/// what a run exercised (`coverage.csv`). Features come from the journeys themselves (the same for
/// every strategy); decision paths and schedule points from the strategies that report them
/// (`core`, whose controlled races reach the points).
///
/// Thread safety: a value type; one per worker thread, merged at the end.
package struct CoverageCounts: Sendable, Equatable {
    /// Journeys per feature row (``featureNames`` order).
    package var features: [UInt64]
    /// Per strategy (run order): journeys per decision path (``DecisionPaths/named`` order).
    package var paths: [UInt64]
    /// Journeys whose controlled race reached each schedule point
    /// (``ScheduleCoverage/pointNames`` order).
    package var points: [UInt64]
    /// Journeys whose controlled race interleaved each pair of points
    /// (``ScheduleCoverage/pairNames`` order).
    package var pairs: [UInt64]

    package init() {
        features = [UInt64](repeating: 0, count: Self.featureNames.count)
        paths = [UInt64](repeating: 0, count: DecisionPaths.named.count)
        points = [UInt64](repeating: 0, count: ScheduleCoverage.pointNames.count)
        pairs = [UInt64](repeating: 0, count: ScheduleCoverage.pairNames.count)
    }

    /// `platform:ios`, …, `source:clip`, …, `perturbation:kill`, …, `extra:kill`, …,
    /// `links:0` … `links:2`, `perturbations:0` … `perturbations:3+`, `racing:yes`,
    /// `router:notReady`.
    package static let featureNames: [String] =
        Platform.allCases.map { "platform:\($0.name)" }
        + ["source:clip", "source:referrer", "source:universalLink"]
        + Perturbation.allCases.map { "perturbation:\($0.name)" }
        + ExtraPerturbations.named.map { "extra:\($0.name)" }
        + ["links:0", "links:1", "links:2"]
        + ["perturbations:0", "perturbations:1", "perturbations:2", "perturbations:3+"]
        + ["racing:yes", "router:notReady"]

    /// Counts `journey`'s features.
    package mutating func count(features journey: Journey) { Self.count(features: journey, into: &features) }

    /// Adds feature counts (``featureNames`` order) counted elsewhere: a batch's, counted once
    /// while it was prepared (``count(features:into:)``) rather than again in every strategy's pass.
    package mutating func add(features counted: [UInt64]) {
        for index in counted.indices where counted[index] != 0 { features[index] &+= counted[index] }
    }

    /// Counts `journey`'s features into `features` (``featureNames`` order).
    package static func count(features journey: Journey, into features: inout [UInt64]) {
        let platforms = Platform.allCases.count
        let perturbationBase = 2 * platforms
        let extrasBase = perturbationBase + Perturbation.allCases.count
        let extrasCount = ExtraPerturbations.named.count
        let linksBase = extrasBase + extrasCount
        // One uniqueness check for the journey's eight or so counts, not one per count.
        features.withUnsafeMutableBufferPointer { features in
            features[Int(journey.scenario.platform.rawValue)] &+= 1
            // Each platform has exactly one source, in the same order.
            features[platforms + Int(journey.scenario.platform.rawValue)] &+= 1
            features[perturbationBase + Int(journey.scenario.perturbation.rawValue)] &+= 1
            // Bit by bit (extra `i` is bit `i`): walking `named` per journey costs more than the rest.
            var extras = journey.extras.rawValue & UInt16(truncatingIfNeeded: (1 << extrasCount) - 1)
            while extras != 0 {
                features[extrasBase + extras.trailingZeroBitCount] &+= 1
                extras &= extras &- 1
            }
            features[linksBase + Int(min(journey.linkCount, 2))] &+= 1
            features[linksBase + 3 + min(journey.perturbationCount, 3)] &+= 1
            if journey.racing { features[features.count - 2] &+= 1 }
            if journey.routerNotReady { features[features.count - 1] &+= 1 }
        }
    }

    /// Counts the decision paths one journey took.
    @inline(__always)
    package mutating func count(paths taken: DecisionPaths) {
        guard !taken.isEmpty else { return }
        // Bit by bit, as the extras above: walking `named` per journey cost more than the rest.
        let indexOfBit = DecisionPaths.namedIndexOfBit
        var remaining = taken.rawValue
        while remaining != 0 {
            let index = Int(indexOfBit[remaining.trailingZeroBitCount])
            if index >= 0 { paths[index] &+= 1 }
            remaining &= remaining &- 1
        }
    }

    /// Counts the schedule points one journey's controlled race reached and the pairs it
    /// interleaved.
    @inline(__always)
    package mutating func count(schedule: ScheduleCoverage) {
        guard !schedule.isEmpty else { return }
        schedule.forEachReachedPoint { points[$0] &+= 1 }
        schedule.forEachInterleavedPair { pairs[$0] &+= 1 }
    }

    package mutating func merge(_ other: CoverageCounts) {
        for index in features.indices { features[index] &+= other.features[index] }
        for index in paths.indices { paths[index] &+= other.paths[index] }
        for index in points.indices { points[index] &+= other.points[index] }
        for index in pairs.indices { pairs[index] &+= other.pairs[index] }
    }
}
