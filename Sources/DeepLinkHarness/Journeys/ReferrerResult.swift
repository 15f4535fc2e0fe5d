/// What the Install Referrer API answers.
package enum ReferrerResult: UInt8, Sendable, Hashable, CaseIterable {
    /// `OK`: the referrer string.
    case ok
    /// `OK`, but long after launch (delivered after `appReady` and login).
    case okDelayed
    /// `SERVICE_UNAVAILABLE`: try again on a later launch.
    case serviceUnavailable
    /// `SERVICE_DISCONNECTED`: the connection dropped; retry now.
    case serviceDisconnected
    /// `FEATURE_NOT_SUPPORTED`: this Play Store cannot answer, ever.
    case featureNotSupported

    package var name: String {
        switch self {
        case .ok: "OK"
        case .okDelayed: "OK(delayed)"
        case .serviceUnavailable: "SERVICE_UNAVAILABLE"
        case .serviceDisconnected: "SERVICE_DISCONNECTED"
        case .featureNotSupported: "FEATURE_NOT_SUPPORTED"
        }
    }

    /// Whether the referrer string was delivered.
    package var delivered: Bool { self == .ok || self == .okDelayed }
}
