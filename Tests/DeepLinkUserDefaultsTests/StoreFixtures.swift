import DeepLinkCore
import DeepLinkCoreTestSupport
import DeepLinkUserDefaults
import Foundation
import Testing

/// A suite of its own per test, removed when the test ends.
struct TestSuite {
    let name = "DeepLinkUserDefaultsTests.\(UUID().uuidString)"

    func store(keyPrefix: String = UserDefaultsHandoffStore.defaultKeyPrefix) throws -> UserDefaultsHandoffStore {
        try UserDefaultsHandoffStore(suiteName: name, keyPrefix: keyPrefix)
    }

    /// The suite as the app sees it, to plant or inspect values behind the store's back.
    var defaults: UserDefaults { UserDefaults(suiteName: name)! }

    func remove() {
        defaults.removePersistentDomain(forName: name)
    }
}

/// The three stores that keep links: the behaviour they share is tested on each.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible {
    case inMemory
    case file
    case userDefaults

    var testDescription: String { rawValue }

    /// A new, empty store and what removes it afterwards.
    func make() throws -> (store: any HandoffStore, cleanUp: () -> Void) {
        switch self {
        case .inMemory:
            return (InMemoryHandoffStore(capacity: 8), {})
        case .file:
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("user-defaults-tests-\(UUID().uuidString)").path
            return (
                try FileHandoffStore(directory: directory), { try? FileManager.default.removeItem(atPath: directory) }
            )
        case .userDefaults:
            let suite = TestSuite()
            return (try suite.store(), suite.remove)
        }
    }
}
