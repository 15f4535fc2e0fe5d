import Synchronization

// The C library: glibc (Linux), Bionic (Android, Swift SDK for Android), Darwin (Apple).
#if canImport(Glibc)
import Glibc
#elseif canImport(Android)
import Android
#elseif canImport(Darwin)
import Darwin
#endif

/// A ``HandoffStore`` in a directory: the stand-in for the App Group container, where a pending
/// link must survive the app being killed at any instant.
///
/// Files (all records in one versioned, checksummed binary layout, ids and timestamps as 16 hex digits):
/// - `pending-<id>.rec` — one per pending link;
/// - `consumed-id-<id>.rec` — the link with this id was consumed;
/// - `consumed-ibt-<timestamp>.rec` — the Install Referrer capture with this install-begin
///   timestamp was consumed (see ``CaptureIdentity``);
/// - `.tmp.<pid>.<n>.<name>` — a write in progress, `flock`ed by its writer; ignored, and removed
///   by ``init(directory:)`` once no writer holds it (its process is gone).
///
/// In an app: put the store in the App Group container both the App Clip and the app see
/// (`FileManager.default.containerURL(forSecurityApplicationGroupIdentifier:)` plus a directory
/// name, its `path`), and give that directory the data-protection class
/// `FileProtectionType.completeUntilFirstUserAuthentication` before creating the store (the app
/// sets it with `FileManager.setAttributes([.protectionKey: …], ofItemAtPath:)`; new files inherit
/// it). With `.complete`, a launch before the first unlock after a reboot (a background fetch, a
/// notification) cannot open the files and every operation fails with
/// ``HandoffStoreError/io(operation:errno:)`` (`EPERM`); the links are not lost, only unreadable
/// until then. On Android use the app's `filesDir` (credential-protected storage, readable after
/// the first unlock).
///
/// Durability: every file is written to a temporary name, `fsync`ed, then renamed (or hard-linked)
/// to its final name, and the directory is `fsync`ed; a reader sees either the complete record or
/// none. ``markConsumed(_:)`` is read–mark–remove: the consumed markers are made durable *before*
/// the pending record is removed, so a kill at any point leaves the link either pending or
/// consumed. A pending record whose id marker exists is the trace of a consume interrupted between
/// the two steps; ``loadPending()`` completes it (removes the record) instead of returning it.
///
/// Exactly once across processes: markers are created exclusively (`link(2)` fails if the name
/// exists), so when two launches race to consume the same handoff only one ``markConsumed(_:)``
/// answers `true`; the other answers `false` and must not route.
///
/// Bad files: a corrupt, truncated, oversized or unknown-version `pending-*` record is reported in
/// ``HandoffLoad/skipped`` with its named error and left in place (evidence, never routed); every
/// other record still loads.
///
/// Thread safety: safe to call from any thread and from several processes sharing the directory;
/// each call is a short sequence of system calls on distinct files. Not a hot path: calls allocate
/// and block on `fsync`.
public final class FileHandoffStore: HandoffStore {
    /// The directory holding the records.
    public let directory: String

    /// Whether records are written in small, slow pieces (crash testing only).
    package let slowWritesForCrashTesting: Bool

    /// Distinguishes the temporary files of concurrent writes in this process.
    private let _temporaryCounter = Atomic<UInt64>(0)

    /// Opens the store in `directory`, creating the directory (not its parents) if needed, and
    /// removes temporary files left by writers that no longer run.
    ///
    /// - Throws: ``HandoffStoreError/io(operation:errno:)`` when the directory cannot be created
    ///   or listed.
    public convenience init(directory: String) throws(HandoffStoreError) {
        try self.init(directory: directory, slowWritesForCrashTesting: false)
    }

    /// ``init(directory:)`` for the crash test: with `slowWritesForCrashTesting`, every file is
    /// written 8 bytes per `write(2)` with a short pause in between, so that a process killed at a
    /// random instant is often killed in the middle of a file. The files are the same.
    package init(directory: String, slowWritesForCrashTesting: Bool) throws(HandoffStoreError) {
        self.directory = directory
        self.slowWritesForCrashTesting = slowWritesForCrashTesting
        if mkdir(directory, 0o755) != 0, errno != EEXIST { throw .io(operation: "mkdir", errno: errno) }
        try _removeAbandonedTemporaryFiles()
    }

    public func save(_ link: PendingLink) throws(HandoffStoreError) {
        try _writeDurably(FileHandoffRecord.encode(link), to: Self._pendingName(link.id), exclusive: false)
    }

    public func loadPending() throws(HandoffStoreError) -> HandoffLoad {
        var pending: [PendingLink] = []
        var skipped: [HandoffStoreError] = []
        for name in try _listNames() where name.hasPrefix(Self._pendingPrefix) && name.hasSuffix(Self._suffix) {
            guard let id = Self._parseHex(name, prefix: Self._pendingPrefix) else {
                skipped.append(.invalidRecord(name: name))
                continue
            }
            if _exists(Self._consumedIDName(id)) {
                // A consume interrupted after its marker: finish it.
                try _remove(name)
                continue
            }
            switch _readRecord(name) {
            case .none:
                continue  // removed since it was listed
            case .some(.success(let link)):
                guard link.id == id else {
                    skipped.append(.invalidRecord(name: name))
                    continue
                }
                // Consumed by its install-begin timestamp (a re-delivery of a routed referrer, or a
                // consume killed between its two markers): a duplicate, not pending.
                if link.identity.installBeginTimestamp != 0, wasConsumed(link.identity) {
                    try _remove(name)
                    continue
                }
                pending.append(link)
            case .some(.failure(let error)):
                skipped.append(error)
            }
        }
        pending.sort { ($0.capturedAtNanos, $0.id) < ($1.capturedAtNanos, $1.id) }
        return HandoffLoad(pending: pending, skipped: skipped)
    }

    public func markConsumed(_ link: PendingLink) throws(HandoffStoreError) -> Bool {
        let record = FileHandoffRecord.encode(link)
        let identity = link.identity
        do {
            // The install-begin marker first: a kill between the two markers then leaves the link
            // pending but recognizably a duplicate, never routable twice.
            if identity.installBeginTimestamp != 0 {
                try _writeDurably(
                    record,
                    to: Self._consumedTimestampName(identity.installBeginTimestamp),
                    exclusive: true
                )
            }
            try _writeDurably(record, to: Self._consumedIDName(identity.id), exclusive: true)
        } catch .io(let operation, let code) where code == EEXIST && operation == Self._exclusiveCreate {
            // Another process (or a relaunch) consumed the same capture first: a duplicate.
            try _remove(Self._pendingName(link.id))
            return false
        }
        try _remove(Self._pendingName(link.id))
        return true
    }

    /// One file per half of ``CaptureIdentity/isSameCapture(as:)``: the id marker, and the
    /// install-begin marker that only referrer identities have.
    public func wasConsumed(_ identity: CaptureIdentity) -> Bool {
        if _exists(Self._consumedIDName(identity.id)) { return true }
        return identity.installBeginTimestamp != 0
            && _exists(Self._consumedTimestampName(identity.installBeginTimestamp))
    }

    public func restorePending(_ link: PendingLink) throws(HandoffStoreError) {
        let identity = link.identity
        if identity.installBeginTimestamp != 0 {
            try _remove(Self._consumedTimestampName(identity.installBeginTimestamp))
        }
        try _remove(Self._consumedIDName(identity.id))
        try save(link)
    }

    public func discard(_ link: PendingLink) throws(HandoffStoreError) {
        try _remove(Self._pendingName(link.id))
    }

    // MARK: - Names

    static let _pendingPrefix = "pending-"
    static let _consumedIDPrefix = "consumed-id-"
    static let _consumedTimestampPrefix = "consumed-ibt-"
    static let _temporaryPrefix = ".tmp."
    static let _suffix = ".rec"
    /// The operation an exclusive create reports when its name exists (`EEXIST`).
    static let _exclusiveCreate = "markConsumed"

    static func _pendingName(_ id: UInt64) -> String { _pendingPrefix + _hex(id) + _suffix }
    static func _consumedIDName(_ id: UInt64) -> String { _consumedIDPrefix + _hex(id) + _suffix }
    static func _consumedTimestampName(_ timestamp: UInt64) -> String {
        _consumedTimestampPrefix + _hex(timestamp) + _suffix
    }

    /// `value` as exactly 16 lowercase hex digits.
    static func _hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The id in `<prefix><16 hex digits>.rec`, or `nil` when `name` has another form.
    static func _parseHex(_ name: String, prefix: String) -> UInt64? {
        let middle = name.utf8.dropFirst(prefix.utf8.count).dropLast(_suffix.utf8.count)
        guard middle.count == 16, let text = String(middle) else { return nil }
        guard text.utf8.allSatisfy({ byte in _isLowercaseHexDigit(byte) }) else { return nil }
        return UInt64(text, radix: 16)
    }

    static func _isLowercaseHexDigit(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
    }

    func _temporaryName(for finalName: String) -> String {
        let sequence = _temporaryCounter.wrappingAdd(1, ordering: .relaxed).oldValue
        return Self._temporaryPrefix + String(getpid()) + "." + String(sequence) + "." + finalName
    }
}
