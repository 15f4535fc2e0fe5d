/// The resolver decision paths a journey exercised, as reported from outside the core: through
/// the resolver's observer decisions and the strategy's own calls (a launch that loaded links, a
/// logout while a link waited, a race). Counted per journey in `coverage.csv`.
///
/// Thread safety: a value type; `Sendable`.
package struct DecisionPaths: OptionSet, Sendable, Hashable {
    package let rawValue: UInt16
    package init(rawValue: UInt16) { self.rawValue = rawValue }

    /// A capture the resolver already held or routed under the same id (a clip handoff read twice).
    package static let duplicateByID = DecisionPaths(rawValue: 1 << 0)
    /// A referrer delivered again under a new id, recognised by Play's install-begin timestamp.
    package static let duplicateByInstallTimestamp = DecisionPaths(rawValue: 1 << 1)
    /// A capture of a link this journey already routed.
    package static let duplicateOfRouted = DecisionPaths(rawValue: 1 << 2)
    /// An older pending link dropped for a newer one when the gate opened.
    package static let supersededOlder = DecisionPaths(rawValue: 1 << 3)
    /// A capture into a full pending set pushed the oldest link out.
    package static let overflowSupersede = DecisionPaths(rawValue: 1 << 10)
    /// A pending link expired while it waited for its gate.
    package static let expiredWhileWaiting = DecisionPaths(rawValue: 1 << 4)
    /// A logout while a link waited: the gate closed again.
    package static let logoutClosedGate = DecisionPaths(rawValue: 1 << 5)
    /// A launch loaded one or more links from the store and admitted them as one batch.
    package static let launchBatch = DecisionPaths(rawValue: 1 << 6)
    /// The process died between the consumed mark and the router call.
    package static let crashWindow = DecisionPaths(rawValue: 1 << 7)
    /// A capture raced a gate signal from another thread, through the lock-free queue.
    package static let racedCapture = DecisionPaths(rawValue: 1 << 8)
    /// The router declined a link (not ready): it went back to pending for the next signal.
    package static let routeDeclined = DecisionPaths(rawValue: 1 << 11)
    /// The capture queue and the machine were full: the link waits in the store.
    package static let queueFull = DecisionPaths(rawValue: 1 << 9)
    /// A link under a signing prefix was refused for its signature (missing, bad, unknown key,
    /// expired).
    package static let signatureRejected = DecisionPaths(rawValue: 1 << 12)
    /// A signed link was refused because its nonce was consumed before (a replay).
    package static let nonceReplayed = DecisionPaths(rawValue: 1 << 13)
    /// A link bound to one account waited while another account was logged in.
    package static let heldForAccount = DecisionPaths(rawValue: 1 << 14)

    /// Every path with its `coverage.csv` name, in report order.
    package static let named: [(path: DecisionPaths, name: String)] = [
        (.duplicateByID, "duplicate_by_id"),
        (.duplicateByInstallTimestamp, "duplicate_by_install_timestamp"),
        (.duplicateOfRouted, "duplicate_of_routed"),
        (.supersededOlder, "supersede_older"),
        (.overflowSupersede, "overflow_supersede"),
        (.expiredWhileWaiting, "expire_while_waiting"),
        (.logoutClosedGate, "logout_closed_gate"),
        (.launchBatch, "launch_batch"),
        (.crashWindow, "crash_window"),
        (.racedCapture, "capture_raced_through_queue"),
        (.queueFull, "queue_full"),
        (.routeDeclined, "route_declined"),
        (.heldForAccount, "held_for_account"),
        (.signatureRejected, "signature_rejected"),
        (.nonceReplayed, "nonce_replayed"),
    ]
}

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
    package mutating func count(features journey: Journey) {
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
        for index in DecisionPaths.named.indices where taken.contains(DecisionPaths.named[index].path) {
            paths[index] &+= 1
        }
    }

    /// Counts the schedule points one journey's controlled race reached and the pairs it
    /// interleaved.
    @inline(__always)
    package mutating func count(schedule: ScheduleCoverage) {
        guard !schedule.isEmpty else { return }
        for index in points.indices where schedule.reached(point: index) { points[index] &+= 1 }
        for index in pairs.indices where schedule.interleaved(pair: index) { pairs[index] &+= 1 }
    }

    package mutating func merge(_ other: CoverageCounts) {
        for index in features.indices { features[index] &+= other.features[index] }
        for index in paths.indices { paths[index] &+= other.paths[index] }
        for index in points.indices { points[index] &+= other.points[index] }
        for index in pairs.indices { pairs[index] &+= other.pairs[index] }
    }
}
