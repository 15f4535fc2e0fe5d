/// One step of a journey's script: what happens, an argument (a tap slot or a referrer result)
/// and when, in seconds of virtual time since the first tap. 8 bytes, no references.
///
/// Thread safety: a value type; `Sendable`.
package struct JourneyEvent: Sendable, Hashable {
    package var kind: Kind
    /// For ``Kind/tap``, ``Kind/clipInvoked``, ``Kind/clipHandoffWrite``, ``Kind/storeVisit`` and
    /// ``Kind/universalLinkOpen``: the tap slot (0 or 1). For ``Kind/referrerFetch`` and
    /// ``Kind/referrerRetry``: a ``ReferrerResult`` raw value. For ``Kind/loginSucceeded`` and
    /// ``Kind/sessionRestored``: the account (an index into ``LinkCatalog/accounts``).
    package var argument: UInt8
    /// Always 0. Fills the two bytes before ``atSeconds`` that would be padding: with every byte
    /// stored, a journey's empty script is one `memset`, where padding makes it a store loop.
    private var reserved: UInt16 = 0
    package var atSeconds: UInt32

    package init(_ kind: Kind, _ argument: UInt8 = 0, at seconds: UInt32) {
        self.kind = kind
        self.argument = argument
        self.atSeconds = seconds
    }

    /// ``Kind/clockJump``'s argument when the clock was set back (the event's time is earlier).
    package static let clockBack: UInt8 = 1

    /// The referrer result of a fetch or retry event.
    package var referrerResult: ReferrerResult { ReferrerResult(rawValue: argument) ?? .ok }

    /// What happens at one step.
    package enum Kind: UInt8, Sendable, Hashable, CaseNamed {
        /// The user taps the link on the web (slot in `argument`).
        case tap
        /// iOS: the App Clip opens with the invocation URL.
        case clipInvoked
        /// iOS: the clip writes URL + timestamp into the App Group container.
        case clipHandoffWrite
        /// The user visits the store page (Android: the Play URL carries the referrer).
        case storeVisit
        /// The full app finishes installing.
        case install
        /// The process starts (first launch or relaunch). iOS apps read the container here.
        case launch
        /// Android: the app asks the Install Referrer API (result in `argument`).
        case referrerFetch
        /// Android: a retry after `SERVICE_DISCONNECTED`, in the same launch (result in `argument`).
        case referrerRetry
        /// The app's UI and router are ready (`signal(appReady)`).
        case appReady
        /// The user logs in successfully (`signal(loggedIn)`).
        case loginSucceeded
        /// A login attempt fails (no signal).
        case loginFailed
        /// A relaunch restores a saved session (`signal(loggedIn)`).
        case sessionRestored
        /// The user logs out (`signal(loggedOut)`).
        case logout
        /// The process is killed (all in-memory state is gone; the container survives).
        case kill
        /// From here on, this process's next route call dies after the consumed mark and before
        /// the router (a later launch is not armed).
        case crashArmed
        /// The device clock jumps forward (the event's time already includes the jump).
        case clockJump
        /// The app is running and a universal link / App Link opens it (slot in `argument`).
        case universalLinkOpen
        /// The user copies something else, overwriting the clipboard.
        case clipboardCopy
        /// The user deletes the app: the process dies and the App Group container (the handoff
        /// store, its consumed marks) and the saved session go with it; a later install is a new
        /// install (a new install-begin timestamp).
        case appDeleted
        /// iOS: the App Clip's data is purged before the full app launches (its container is gone).
        case clipDataPurged

        package static let names = caseNames()
    }
}
