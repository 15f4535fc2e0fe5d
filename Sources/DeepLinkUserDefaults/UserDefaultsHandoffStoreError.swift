/// Why a ``UserDefaultsHandoffStore`` could not be opened.
///
/// Thread safety: a value type; `Sendable`.
public enum UserDefaultsHandoffStoreError: Error, Sendable, Hashable {
    /// `UserDefaults(suiteName:)` refused the name: it refuses the app's own bundle identifier and
    /// `NSGlobalDomain`.
    case unusableSuite(String)
    /// The key prefix is empty: the store's keys would mix with the suite's other settings.
    case emptyKeyPrefix
}
