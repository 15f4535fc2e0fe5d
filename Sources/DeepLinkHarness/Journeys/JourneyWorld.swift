/// Conditions around a journey that only the fingerprint and clipboard strategies see.
///
/// Thread safety: a value type; `Sendable`.
package struct JourneyWorld: Sendable, Hashable {
    /// Another user behind the same IP with the same device attributes tapped a different link
    /// (catalog id ``collidingLink``) within the fingerprint window, after this user's tap.
    package var fingerprintCollision: Bool = false
    package var collidingLink: UInt8 = 0
    /// The device's IP changed between the tap and the first launch (Wi-Fi to cellular).
    package var ipChanged: Bool = false
    /// iOS: Safari's requests went through iCloud Private Relay (another IP than the app's).
    package var privateRelay: Bool = false
    /// The clipboard was cleared before the first launch.
    package var clipboardCleared: Bool = false
    /// The user declines iOS's "pasted from Safari" prompt at first launch.
    package var pasteDeclined: Bool = false

    package init() {}
}
