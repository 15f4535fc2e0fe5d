import DeepLinkCore
import Foundation

/// A ``DeepLinkCore/HandoffStore`` over `UserDefaults(suiteName:)`: what an App Clip and its app
/// that already share an App Group suite can use instead of writing the link under one key and
/// removing it on read.
///
/// Removing a link when it is read loses it to a kill before login, and a second read (a re-delivered
/// referrer, two launches) cannot tell that it was routed. This store never removes on read: a link
/// stays pending until the resolver consumes it, and consuming is read–mark–remove, as
/// ``DeepLinkCore/FileHandoffStore`` does it: the consumed marks are written first, then the pending
/// record goes, and the marks stay, so a re-delivery is a duplicate.
///
/// Keys (in the suite, each behind ``keyPrefix``; ids and timestamps as 16 hex digits), each value
/// one record in the file store's layout (versioned, checksummed, validated when read):
/// - `pending.<id>` — one per pending link;
/// - `consumed-id.<id>` — the link with this id was consumed;
/// - `consumed-ibt.<timestamp>` — the Install Referrer capture with this install-begin timestamp
///   was consumed (see ``DeepLinkCore/CaptureIdentity``).
///
/// In an app: the suite is the App Group's identifier (`group.com.example.app`), which the App
/// Clip and the app both list in their App Groups entitlement.
///
/// Durability: every write is followed by `synchronize()`. On Apple platforms the values live in
/// the preferences daemon, out of the app's process, once `set` returns, so a kill of the app does
/// not lose them; on Linux, corelibs Foundation writes the suite's file when it synchronizes. A
/// kill between the marks and the removal of the pending record leaves a record whose id mark
/// exists; ``loadPending()`` completes that consume instead of returning the link.
///
/// Limits (use ``DeepLinkCore/FileHandoffStore`` when they matter): UserDefaults has no exclusive
/// create, so the consume is exclusive only within one process (behind this store's lock): two
/// *processes* consuming the same link at the same instant could both succeed. An App Clip that
/// only saves and an app that resolves never race like that. UserDefaults loads a whole suite into
/// memory; it suits the handful of records a handoff needs, not thousands.
///
/// Bad values: a pending value that is not data, or data that does not decode, is reported in
/// ``DeepLinkCore/HandoffLoad/skipped`` with its named error (the name is its key) and left in
/// place; every other record still loads.
///
/// Thread safety: every member may be called from any thread; each call holds this store's lock
/// for its whole sequence of reads and writes. Not a hot path: calls allocate.
public final class UserDefaultsHandoffStore: Sendable {
    /// The suite the records live in.
    public let suiteName: String
    /// What every key of this store starts with, so that the store shares a suite with the app's
    /// other settings.
    public let keyPrefix: String

    /// The suite; UserDefaults itself is thread-safe, and `lock` orders this store's sequences of
    /// calls on it.
    nonisolated(unsafe) let defaults: UserDefaults
    let lock = Locked(())

    /// The key prefix used when none is given.
    public static let defaultKeyPrefix = "DeepLinkHandoff."

    /// Opens the store in the suite `suiteName`.
    ///
    /// - Throws: ``UserDefaultsHandoffStoreError/unusableSuite(_:)`` when UserDefaults refuses the
    ///   name (it refuses the app's own bundle identifier and `NSGlobalDomain`), and
    ///   ``UserDefaultsHandoffStoreError/emptyKeyPrefix`` for an empty `keyPrefix`.
    public init(suiteName: String, keyPrefix: String = defaultKeyPrefix) throws(UserDefaultsHandoffStoreError) {
        guard !keyPrefix.isEmpty else { throw .emptyKeyPrefix }
        guard let defaults = UserDefaults(suiteName: suiteName) else { throw .unusableSuite(suiteName) }
        self.suiteName = suiteName
        self.keyPrefix = keyPrefix
        self.defaults = defaults
    }

    // MARK: - Keys

    var pendingPrefix: String { keyPrefix + "pending." }

    func pendingKey(_ id: UInt64) -> String { pendingPrefix + Self.hex(id) }

    func consumedIDKey(_ id: UInt64) -> String { keyPrefix + "consumed-id." + Self.hex(id) }

    func consumedTimestampKey(_ timestamp: UInt64) -> String {
        keyPrefix + "consumed-ibt." + Self.hex(timestamp)
    }

    /// 16 lowercase hex digits, so that every key of a kind has the same length.
    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The id a pending key names, nil when it is not 16 hex digits.
    func pendingID(fromKey key: String) -> UInt64? {
        let digits = key.dropFirst(pendingPrefix.count)
        guard digits.count == 16 else { return nil }
        return UInt64(digits, radix: 16)
    }

    // MARK: - Values

    func exists(_ key: String) -> Bool { defaults.object(forKey: key) != nil }

    func write(_ link: PendingLink, to key: String) throws(HandoffStoreError) {
        defaults.set(Data(FileHandoffRecord.encode(link)), forKey: key)
        try flush(after: "write")
    }

    func remove(_ key: String) throws(HandoffStoreError) {
        guard exists(key) else { return }
        defaults.removeObject(forKey: key)
        try flush(after: "remove")
    }

    /// `synchronize()`, which answers only yes or no: a no is reported as `EIO` (UserDefaults
    /// gives no errno), with the operation that wrote.
    func flush(after operation: String) throws(HandoffStoreError) {
        guard defaults.synchronize() else { throw .io(operation: "synchronize after " + operation, errno: EIO) }
    }

    /// The link stored under `key`: nil when there is none, a named error when the value is not a
    /// record or not this id's.
    func readRecord(_ key: String, id: UInt64) -> Result<PendingLink, HandoffStoreError>? {
        guard let value = defaults.object(forKey: key) else { return nil }
        guard let data = value as? Data else { return .failure(.invalidRecord(name: key)) }
        switch FileHandoffRecord.decode(Array(data), name: key) {
        case .success(let link):
            return link.id == id ? .success(link) : .failure(.invalidRecord(name: key))
        case .failure(let error):
            return .failure(error)
        }
    }
}
