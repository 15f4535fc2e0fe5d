/// Where the journey happens.
package enum Platform: UInt8, Sendable, Hashable, CaseNamed {
    /// iOS, app not installed: App Clip handoff through the App Group container.
    case ios
    /// Android, app not installed: Play Install Referrer.
    case android
    /// The app is already installed and running: a universal link / App Link (warm path).
    case installed

    package static let names = caseNames()

    package var source: ScenarioClass.Source {
        switch self {
        case .ios: .clip
        case .android: .referrer
        case .installed: .universalLink
        }
    }
}
