extension UserDefaultsHandoffStoreError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .unusableSuite(let name):
            "UserDefaults refused the suite name '\(name)'; pass the App Group identifier the App Clip and "
                + "the app share (group.…), not the app's bundle identifier or NSGlobalDomain"
        case .emptyKeyPrefix:
            "the key prefix is empty; pass a prefix (the default is "
                + "'\(UserDefaultsHandoffStore.defaultKeyPrefix)') so the store's keys do not mix with other settings"
        }
    }
}
