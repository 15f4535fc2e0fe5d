/// A journey's reporting class: platform × capture source × the one perturbation it exercises.
///
/// Thread safety: a value type; `Sendable`.
package struct ScenarioClass: Sendable, Hashable {
    package var platform: Platform
    package var perturbation: Perturbation

    package init(platform: Platform, perturbation: Perturbation) {
        self.platform = platform
        self.perturbation = perturbation
    }

    /// The capture source that follows from the platform.
    package var source: Source { platform.source }

    /// `platform/source/perturbation`, e.g. `android/referrer/kill`.
    package var name: String { "\(platform.name)/\(source.rawValue)/\(perturbation.name)" }

    /// A dense index in `0..<ScenarioClass.count`, for counter tables.
    package var denseIndex: Int { Int(platform.rawValue) * Perturbation.allCases.count + Int(perturbation.rawValue) }

    /// How many scenario classes exist.
    package static let count = Platform.allCases.count * Perturbation.allCases.count

    /// The class at a dense index (inverse of ``denseIndex``).
    package init(denseIndex: Int) {
        let perturbations = Perturbation.allCases.count
        self.platform = Platform(rawValue: UInt8(denseIndex / perturbations)) ?? .ios
        self.perturbation = Perturbation(rawValue: UInt8(denseIndex % perturbations)) ?? .none
    }

    /// How a link reaches the app.
    package enum Source: String, Sendable {
        case clip
        case referrer
        case universalLink
    }
}
