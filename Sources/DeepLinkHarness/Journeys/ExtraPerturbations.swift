/// Perturbations composed on top of a journey's own (its ``ScenarioClass`` names only that one).
/// How many a journey gets is drawn from ``ScenarioMix/extraPerturbationCounts``; which ones,
/// uniformly among those that apply to the platform and are not the journey's own.
///
/// Thread safety: a value type; `Sendable`.
package struct ExtraPerturbations: OptionSet, Sendable, Hashable {
    package let rawValue: UInt16
    package init(rawValue: UInt16) { self.rawValue = rawValue }

    /// A kill and relaunch at a random point after the first launch.
    package static let kill = ExtraPerturbations(rawValue: 1 << 0)
    /// One to three more relaunches at the end (re-deliveries, re-reads).
    package static let duplicateDelivery = ExtraPerturbations(rawValue: 1 << 1)
    /// The install takes hours or days (the fingerprint window passes; the time-to-live nears).
    package static let delayedInstall = ExtraPerturbations(rawValue: 1 << 2)
    /// The device clock is set back by hours or days after the first launch.
    package static let clockBackwards = ExtraPerturbations(rawValue: 1 << 3)
    /// iOS: the clip card is never tapped (the user goes straight to the App Store): no handoff.
    package static let clipSkipped = ExtraPerturbations(rawValue: 1 << 4)
    /// iOS: the clip's data is purged before the full app's first launch.
    package static let clipDataPurged = ExtraPerturbations(rawValue: 1 << 5)
    /// The app is deleted unopened and installed again: from a new tap (iOS) or the same Play
    /// listing (Android, a new install-begin timestamp).
    package static let reinstall = ExtraPerturbations(rawValue: 1 << 6)

    /// Every extra with its name, in order: extra `i` is bit `i` of the raw value.
    package static let named: [(extra: ExtraPerturbations, name: String)] = [
        (.kill, "kill"), (.duplicateDelivery, "duplicateDelivery"), (.delayedInstall, "delayedInstall"),
        (.clockBackwards, "clockBackwards"), (.clipSkipped, "clipSkipped"), (.clipDataPurged, "clipDataPurged"),
        (.reinstall, "reinstall"),
    ]

    /// The names of the extras in this set.
    package var names: [String] { Self.named.filter { contains($0.extra) }.map(\.name) }

    /// The extras that can be composed with a journey of `platform` whose own perturbation is
    /// `perturbation`.
    package static func applicable(to platform: Platform, with perturbation: Perturbation) -> [ExtraPerturbations] {
        let candidates = Candidates(platform: platform, perturbation: perturbation)
        return (0..<candidates.count).map { candidates[$0] }
    }

    /// ``applicable(to:with:)`` in place, in the same order, for the generator's draw (once per
    /// journey, where an array would be allocated and freed).
    ///
    /// Thread safety: a value type.
    struct Candidates {
        /// Raw values; every extra at most once.
        private var members = InlineArray<7, UInt16>(repeating: 0)
        private(set) var count = 0

        init(platform: Platform, perturbation: Perturbation) {
            guard platform != .installed, perturbation != .clipOnly else { return }
            append(.delayedInstall)
            append(.clockBackwards)
            append(.reinstall)
            if perturbation != .kill && perturbation != .crashWindow { append(.kill) }
            if perturbation != .duplicateDelivery && perturbation != .crashWindow { append(.duplicateDelivery) }
            if platform == .ios && perturbation != .secondTap {
                append(.clipSkipped)
                append(.clipDataPurged)
            }
        }

        private mutating func append(_ extra: ExtraPerturbations) {
            members[count] = extra.rawValue
            count += 1
        }

        subscript(index: Int) -> ExtraPerturbations { ExtraPerturbations(rawValue: members[index]) }

        /// Removes and returns candidate `index`; the later ones move up.
        mutating func remove(at index: Int) -> ExtraPerturbations {
            let removed = self[index]
            for position in index..<(count - 1) { members[position] = members[position + 1] }
            count -= 1
            return removed
        }
    }
}
