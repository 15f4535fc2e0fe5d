/// The probabilities journeys are drawn with: platform shares, perturbation weights, how often
/// links need login, and the parameters of the fingerprint and clipboard worlds. A default is
/// built in; `--mix FILE` overrides any subset of its keys from a flat JSON object, e.g.
/// `{"perturbation.kill": 0.2, "fingerprint.sharedIPShare": 0.4}`. ``keys`` lists every key.
///
/// Thread safety: a value type; `Sendable`.
package struct ScenarioMix: Sendable, Equatable {
    /// Relative weights of ``Platform`` cases (indexed by raw value).
    package var platformWeights: [Double]
    /// Relative weights of ``Perturbation`` cases (indexed by raw value), among those that apply
    /// to the journey's platform.
    package var perturbationWeights: [Double]
    /// Relative weights of composing 0, 1, 2 or 3 extra perturbations on a journey.
    package var extraPerturbationWeights: [Double]
    /// Share of tapped links that need `loggedIn` (`/orders/`).
    package var loginLinkShare: Double
    /// Share of journeys with an open link where the user logs in anyway.
    package var optionalLoginShare: Double
    /// Share of installed-app journeys where the user is already logged in.
    package var alreadyLoggedInShare: Double
    /// Share of journeys behind an IP shared with other users (carrier-grade NAT, office Wi-Fi).
    package var sharedIPShare: Double
    /// Among shared-IP journeys: share where another user with the same device attributes taps a
    /// different link inside the fingerprint window.
    package var collisionShare: Double
    /// Share of journeys whose IP changes between tap and first launch.
    package var ipChangeShare: Double
    /// Share of iOS journeys whose browser traffic goes through iCloud Private Relay, so the web
    /// tap and the app's first request come from different IPs.
    package var privateRelayShare: Double
    /// The fingerprint matching window, seconds.
    package var fingerprintWindowSeconds: Double
    /// Share of journeys where the user copies something else before the first launch.
    package var interveningCopyShare: Double
    /// Share of iOS journeys where the user declines the paste prompt.
    package var pasteDeclineShare: Double
    /// Share of journeys whose clipboard is cleared before the first launch (another app, a
    /// clipboard manager, a restart that drops it).
    package var clipboardClearedShare: Double
    /// The pending-link time-to-live, seconds (oracle and `core` use the same).
    package var ttlSeconds: Double

    /// The built-in default mix.
    package static let `default` = ScenarioMix()

    package init() {
        platformWeights = [0.40, 0.45, 0.15]
        var weights = [Double](repeating: 0, count: Perturbation.allCases.count)
        let defaults: [(Perturbation, Double)] = [
            (.none, 0.30), (.lateLogin, 0.04), (.loginFailed, 0.04), (.noLogin, 0.04), (.logout, 0.04),
            (.kill, 0.08), (.crashWindow, 0.02), (.duplicateDelivery, 0.08), (.secondTap, 0.05),
            (.clockJump, 0.04), (.hostile, 0.06), (.organic, 0.04), (.notSet, 0.02), (.bareToken, 0.01),
            (.doubleEncoded, 0.02), (.referrerDelayed, 0.03), (.referrerUnavailable, 0.03),
            (.referrerDisconnected, 0.03), (.featureNotSupported, 0.02), (.clipOnly, 0.03), (.gateBypass, 0.02),
            (.otherAccount, 0.02), (.forged, 0.02),
        ]
        for (perturbation, weight) in defaults { weights[Int(perturbation.rawValue)] = weight }
        perturbationWeights = weights
        extraPerturbationWeights = [0.55, 0.30, 0.10, 0.05]
        loginLinkShare = 0.35
        optionalLoginShare = 0.5
        alreadyLoggedInShare = 0.5
        sharedIPShare = 0.25
        collisionShare = 0.3
        ipChangeShare = 0.08
        privateRelayShare = 0.10
        fingerprintWindowSeconds = 7_200
        interveningCopyShare = 0.12
        pasteDeclineShare = 0.25
        clipboardClearedShare = 0.03
        ttlSeconds = 86_400
    }

    /// What a key accepts.
    enum KeyKind {
        case weight
        case share
        case seconds
    }

    /// Every key a mix file may set, with what it accepts.
    package static var keys: [String] { keyTable.map(\.0) }

    static var keyTable: [(String, KeyKind, WritableKeyPath<ScenarioMix, Double>?)] {
        var table: [(String, KeyKind, WritableKeyPath<ScenarioMix, Double>?)] = []
        for platform in Platform.allCases { table.append(("platform.\(platform.name)", .weight, nil)) }
        for perturbation in Perturbation.allCases {
            table.append(("perturbation.\(perturbation.name)", .weight, nil))
        }
        for count in 0..<4 { table.append(("extras.\(count)", .weight, nil)) }
        table += [
            ("links.loginShare", .share, \.loginLinkShare),
            ("login.optionalShare", .share, \.optionalLoginShare),
            ("login.alreadyLoggedInShare", .share, \.alreadyLoggedInShare),
            ("fingerprint.sharedIPShare", .share, \.sharedIPShare),
            ("fingerprint.collisionShare", .share, \.collisionShare),
            ("fingerprint.ipChangeShare", .share, \.ipChangeShare),
            ("fingerprint.privateRelayShare", .share, \.privateRelayShare),
            ("fingerprint.windowSeconds", .seconds, \.fingerprintWindowSeconds),
            ("clipboard.interveningCopyShare", .share, \.interveningCopyShare),
            ("clipboard.pasteDeclineShare", .share, \.pasteDeclineShare),
            ("clipboard.clearedShare", .share, \.clipboardClearedShare),
            ("ttlSeconds", .seconds, \.ttlSeconds),
        ]
        return table
    }
}
