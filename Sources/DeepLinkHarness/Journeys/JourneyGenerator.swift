/// Builds journeys from `(seed, index)` with a counter-based generator: each journey's random
/// stream is seeded by a SplitMix64 hash of the seed and the index, so a journey does not depend on
/// any other, on thread count or on order. Replay and sharding regenerate single journeys.
///
/// Thread safety: immutable after `init`; `Sendable`, shared by all worker threads.
///
/// - Complexity: ``journey(at:)`` is O(events), with no heap allocation.
package struct JourneyGenerator: Sendable {
    package let seed: UInt64
    package let mix: ScenarioMix
    /// Share of journeys that `core` delivers from two threads at once.
    package let raceShare: Double

    private let platformThresholds: [Double]
    /// Per platform, one after another: cumulative perturbation thresholds (same order as
    /// `Perturbation.allCases`, ``perturbationCount`` each).
    private let perturbationThresholds: [Double]
    /// `Perturbation.allCases.count`, which builds an array on every call.
    private let perturbationCount: Int
    /// Cumulative thresholds of composing 0, 1, 2, … extra perturbations.
    private let extraThresholds: [Double]
    /// The mix's shares the builder draws with (a copy of the mix would retain its arrays).
    private let shares: Shares
    private let ttl: UInt32
    private let window: UInt32

    package init(seed: UInt64, mix: ScenarioMix = .default, raceShare: Double = 0) {
        self.seed = seed
        self.mix = mix
        self.raceShare = raceShare
        self.platformThresholds = Self.cumulative(mix.platformWeights)
        self.perturbationThresholds = Platform.allCases.flatMap { platform in
            Self.cumulative(
                Perturbation.allCases.map { $0.applies(to: platform) ? mix.perturbationWeights[Int($0.rawValue)] : 0 }
            )
        }
        self.perturbationCount = Perturbation.allCases.count
        // Summed weight by weight of the normalised weights (not normalised sums as in
        // `cumulative`): the thresholds journeys were always drawn against.
        let extraTotal = mix.extraPerturbationWeights.reduce(0, +)
        var extraThreshold = 0.0
        self.extraThresholds = mix.extraPerturbationWeights.map { weight in
            extraThreshold += extraTotal > 0 ? weight / extraTotal : 0
            return extraThreshold
        }
        self.shares = Shares(mix)
        self.ttl = UInt32(min(mix.ttlSeconds, 31_536_000))
        self.window = UInt32(min(mix.fingerprintWindowSeconds, 31_536_000))
    }

    private static func cumulative(_ weights: [Double]) -> [Double] {
        let total = weights.reduce(0, +)
        var running = 0.0
        return weights.map { weight in
            running += weight
            return total > 0 ? running / total : 1
        }
    }

    /// The journey at `index`: always the same for the same seed, mix and race share.
    package func journey(at index: UInt64) -> Journey {
        var random = SplitMix64(seed: seed, index: index)
        let platform = Platform(rawValue: UInt8(Self.pick(random.unit(), platformThresholds, from: 0))) ?? .ios
        let perturbations = Int(platform.rawValue) * perturbationCount
        let perturbation =
            Perturbation(
                rawValue: UInt8(
                    Self.pick(random.unit(), perturbationThresholds, from: perturbations, count: perturbationCount)
                )
            ) ?? .none
        // No extras when the draw passes every threshold (rounding can leave the last below 1).
        let extrasDraw = random.unit()
        var extras = 0
        for count in extraThresholds.indices where extrasDraw < extraThresholds[count] {
            extras = count
            break
        }
        var builder = Builder(
            journey: Journey(
                seed: seed,
                index: index,
                scenario: ScenarioClass(platform: platform, perturbation: perturbation)
            ),
            random: random,
            shares: shares,
            ttl: ttl,
            window: window
        )
        builder.chooseExtras(count: extras)
        builder.build()
        builder.journey.racing = raceShare > 0 && builder.random.unit() < raceShare
        builder.journey.routerNotReady = Self.routerNotReady(seed: seed, index: index)
        return builder.journey
    }

    /// One journey in eight has a router that declines its first offer. Hashed from `(seed, index)`
    /// apart from the journey's random stream, so every other choice stays what it was.
    static func routerNotReady(seed: UInt64, index: UInt64) -> Bool {
        var hash = SplitMix64(seed: seed ^ 0x524F_5554_4552, index: index)
        return hash.next() & 7 == 0
    }

    /// The index (from `start`) of the first of `count` thresholds (all from `start` when nil)
    /// above `value`, or the last one.
    private static func pick(_ value: Double, _ thresholds: [Double], from start: Int, count: Int? = nil) -> Int {
        let end = count.map { start + $0 } ?? thresholds.count
        for index in start..<end where value < thresholds[index] { return index - start }
        return end - 1 - start
    }

    /// The mix's shares the builder draws with.
    struct Shares {
        let loginLinkShare: Double
        let optionalLoginShare: Double
        let alreadyLoggedInShare: Double
        let sharedIPShare: Double
        let collisionShare: Double
        let ipChangeShare: Double
        let privateRelayShare: Double
        let interveningCopyShare: Double
        let pasteDeclineShare: Double
        let clipboardClearedShare: Double

        init(_ mix: ScenarioMix) {
            loginLinkShare = mix.loginLinkShare
            optionalLoginShare = mix.optionalLoginShare
            alreadyLoggedInShare = mix.alreadyLoggedInShare
            sharedIPShare = mix.sharedIPShare
            collisionShare = mix.collisionShare
            ipChangeShare = mix.ipChangeShare
            privateRelayShare = mix.privateRelayShare
            interveningCopyShare = mix.interveningCopyShare
            pasteDeclineShare = mix.pasteDeclineShare
            clipboardClearedShare = mix.clipboardClearedShare
        }
    }
}
