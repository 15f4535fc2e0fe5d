/// Something the app tells the resolver about itself, from any thread, through
/// ``LinkResolver/signal(_:)``.
///
/// `appReady` and custom events are sticky for the life of the process; `loggedIn` and
/// `loggedInAs` hold until the next `loggedOut` (or the next login, which replaces the account). A relaunched process starts with no events: the app signals them again.
///
/// Thread safety: a value type; `Sendable`.
public enum AppEvent: Sendable, Hashable {
    /// The app finished launching and can navigate (required by every route).
    case appReady
    /// A user session exists (for example `/orders/` links need it). It names no account, so it
    /// opens no link bound to one (``PendingLink/account``): an app that binds links signals
    /// ``loggedInAs(_:)`` instead.
    case loggedIn
    /// A user session exists for `account`: as ``loggedIn``, and it also opens the links bound to
    /// that account. Another account's bound links stay pending.
    case loggedInAs(AccountID)
    /// The session ended: links that need `loggedIn` wait again.
    case loggedOut
    /// An app-defined business event (onboarding finished, consent given, ...).
    case custom(AppEvent.Custom)
}

extension AppEvent {
    /// The id of an app-defined business event: `0..<AppEvent.Custom.capacity`.
    ///
    /// The range is small because the gate keeps every event in one 64-bit mask, so that checking a
    /// link's gate is a single AND with no allocation.
    ///
    /// Thread safety: a value type; `Sendable`.
    public struct Custom: Sendable, Hashable {
        /// How many distinct custom events a policy can name.
        public static let capacity = 62

        /// The event's number, `0..<capacity`.
        public let id: UInt8

        /// Returns `nil` when `id` is outside `0..<capacity`.
        public init?(id: Int) {
            guard id >= 0, id < Self.capacity else { return nil }
            self.id = UInt8(id)
        }
    }
}

/// A set of gate events: what a route requires, and what the app has signalled so far.
///
/// Thread safety: a value type; `Sendable`.
public struct GateEvents: OptionSet, Sendable, Hashable {
    public let rawValue: UInt64

    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// The app is ready (every route requires it).
    public static let appReady = GateEvents(rawValue: 1 << 0)
    /// A user is logged in.
    public static let loggedIn = GateEvents(rawValue: 1 << 1)

    /// The bit of one custom event.
    public static func custom(_ event: AppEvent.Custom) -> GateEvents {
        GateEvents(rawValue: 1 << (2 + UInt64(event.id)))
    }
}
