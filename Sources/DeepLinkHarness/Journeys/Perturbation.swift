/// The one disturbance a journey exercises (SPEC 4.1). Each is drawn with the weight the scenario
/// mix gives it, among those that apply to the journey's platform.
package enum Perturbation: UInt8, Sendable, Hashable, CaseNamed {
    /// The happy path.
    case none
    /// Login long after the link arrived (after a relaunch).
    case lateLogin
    /// A failed login attempt, then success or nothing.
    case loginFailed
    /// The user never logs in.
    case noLogin
    /// Logged in, then logged out before the link arrives (Android, installed).
    case logout
    /// The process is killed at a random step and relaunched.
    case kill
    /// The process dies inside the route call, after the consumed mark, before the router.
    case crashWindow
    /// Later launches deliver the same referrer / read the same handoff again.
    case duplicateDelivery
    /// A second tap on another link before the install completes.
    case secondTap
    /// The clock jumps past the time-to-live before the link can be routed.
    case clockJump
    /// The payload is hostile or malformed.
    case hostile
    /// An organic install (Play's `utm_medium=organic` placeholder, no tap).
    case organic
    /// Play's `(not set)` placeholder referrer.
    case notSet
    /// A bare token referrer with no payload.
    case bareToken
    /// A double-encoded referrer (decode once, parse again).
    case doubleEncoded
    /// The referrer arrives late, after `appReady` and login.
    case referrerDelayed
    /// `SERVICE_UNAVAILABLE` on first launch; the next launch succeeds.
    case referrerUnavailable
    /// `SERVICE_DISCONNECTED`, then a retry in the same launch succeeds.
    case referrerDisconnected
    /// `FEATURE_NOT_SUPPORTED`: the API never answers.
    case featureNotSupported
    /// The App Clip ran but the full app was never installed.
    case clipOnly
    /// A gate-bypass link: the orders screen spelled so that a byte-prefix gate misses it (an
    /// encoded letter, no trailing slash, a query instead of a segment, upper case), or a payload
    /// that must be refused (an encoded slash, a bidi or zero-width character, a lone `%`, the
    /// payload key twice). Half the users never log in.
    case gateBypass
    /// A link bound to one account (an invite for alice) on a device where another account logs
    /// in first; alice logs in later, or never (Android).
    case otherAccount
    /// A forged payload on a route that requires a signature (``ExampleApp/signedPrefixes``):
    /// unsigned, tampered with, expired or signed with an unknown key; or a genuine signed link
    /// that is opened again after it was routed (a replayed nonce).
    case forged

    package static let names = caseNames()

    /// Whether the perturbation can happen on `platform`.
    package func applies(to platform: Platform) -> Bool {
        switch self {
        case .none, .lateLogin, .loginFailed, .noLogin, .hostile, .gateBypass, .forged:
            true
        case .kill, .crashWindow, .duplicateDelivery, .secondTap, .clockJump:
            platform != .installed
        case .logout:
            platform != .ios
        case .organic, .notSet, .bareToken, .doubleEncoded, .referrerDelayed, .referrerUnavailable,
            .referrerDisconnected, .featureNotSupported, .otherAccount:
            platform == .android
        case .clipOnly:
            platform == .ios
        }
    }
}
