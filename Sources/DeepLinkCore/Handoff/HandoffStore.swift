/// The App Group container stand-in: where captured links wait, durably, until they are routed.
///
/// The article's snippet removes the link from the container when it is read; a process kill before
/// login then loses it. A `HandoffStore` keeps a link until the resolver has *consumed* it, and
/// remembers what it consumed so that a re-delivered referrer (Play returns the same one for 90
/// days) or a handoff read by two racing launches is routed once per install.
///
/// Protocol of use (what the resolver does):
/// 1. a capture source calls ``saveUnlessConsumed(_:)`` (the clip writes its handoff; the referrer
///    callback saves what it fetched); its answer is the capture's duplicate check;
/// 2. at launch the app calls ``loadPending()`` and captures every link it returns;
/// 3. before calling the router, the resolver calls ``markConsumed(_:)``, which checks and writes
///    the consumed mark in one step and routes only on `true`; a kill after it and before the
///    router call is the one window where a link is lost (*at most once* across a crash);
/// 4. when the router answers ``RouteResult/notReady``, the resolver undoes step 3 with
///    ``restorePending(_:)``;
/// 5. superseded, expired and rejected links are dropped with ``discard(_:)``.
///
/// A store answers each of these in one step (one lock round trip, one exclusive file create):
/// the check that decides and the write that follows from it are never two calls, so two
/// processes or threads consuming the same capture cannot both be told to route it.
///
/// Thread safety: implementations must be safe to call from any thread.
public protocol HandoffStore: Sendable {
    /// Durably records `link` as pending, replacing a pending record with the same id.
    func save(_ link: PendingLink) throws(HandoffStoreError)

    /// Every pending link (saved, neither consumed nor discarded), oldest capture first, plus the
    /// records that could not be read (each with its named error; they are skipped, nothing else
    /// is lost). A record whose capture was consumed (``wasConsumed(_:)``, by its id or by its
    /// install-begin timestamp) is not pending. Allocates: called once per launch, not on a hot
    /// path.
    func loadPending() throws(HandoffStoreError) -> HandoffLoad

    /// ``loadPending()`` into a caller-owned buffer: appends every pending link (oldest capture
    /// first) to `pending` and returns the records that could not be read. A store that can should
    /// implement it without allocating once `pending` has grown to its size; the default calls
    /// ``loadPending()``.
    func loadPending(into pending: inout [PendingLink]) throws(HandoffStoreError) -> [HandoffStoreError]

    /// Durably marks `link` consumed (by its ``CaptureIdentity``) and removes its pending record,
    /// unless the same capture (``CaptureIdentity/isSameCapture(as:)``) was consumed before: the
    /// check and the mark are one step.
    ///
    /// - Returns: `true` when this call wrote the mark: the caller may route `link`. `false` when
    ///   a mark of the same capture was already there (another process or thread consumed it):
    ///   nothing is marked, the pending record of `link`'s id is removed (it is a duplicate), and
    ///   the caller must not route `link`.
    func markConsumed(_ link: PendingLink) throws(HandoffStoreError) -> Bool

    /// Whether the same capture (``CaptureIdentity/isSameCapture(as:)``) was consumed before: a
    /// question that decides nothing by itself (a signed link's replay check, inspection). The
    /// resolver's own decisions take their answer from ``saveUnlessConsumed(_:)`` and
    /// ``markConsumed(_:)``, which check and write in one step.
    func wasConsumed(_ identity: CaptureIdentity) -> Bool

    /// Undoes ``markConsumed(_:)`` for a link the router did not handle: removes its consumed mark
    /// (this identity's, exactly) and records it as pending again. The install-begin mark goes
    /// first, then the id mark, then the record is saved: a kill in between loses at most this
    /// link, and a re-delivered referrer is then accepted again.
    func restorePending(_ link: PendingLink) throws(HandoffStoreError)

    /// Drops the pending record of `link` without routing it (superseded, expired, rejected).
    func discard(_ link: PendingLink) throws(HandoffStoreError)

    /// ``save(_:)`` unless ``wasConsumed(_:)`` (what a capture does). Returns false when the link
    /// was consumed before (nothing was saved). A store that can should do both in one step; the
    /// default calls the two in turn.
    func saveUnlessConsumed(_ link: PendingLink) throws(HandoffStoreError) -> Bool

    /// False only when ``loadPending(into:)`` would surely append nothing and skip nothing right
    /// now (a cheap check, without a lock): a launch then need not load. The default answers true.
    var mayHoldPending: Bool { get }
}

extension HandoffStore {
    public func saveUnlessConsumed(_ link: PendingLink) throws(HandoffStoreError) -> Bool {
        guard !wasConsumed(link.identity) else { return false }
        try save(link)
        return true
    }

    public var mayHoldPending: Bool { true }

    public func loadPending(into pending: inout [PendingLink]) throws(HandoffStoreError) -> [HandoffStoreError] {
        let load = try loadPending()
        pending.append(contentsOf: load.pending)
        return load.skipped
    }
}

/// A write operation of a ``HandoffStore``.
///
/// Thread safety: a value type; `Sendable`.
public enum HandoffOperation: Sendable, Hashable, CaseIterable {
    case save
    case markConsumed
    case restorePending
    case discard
}

/// What ``HandoffStore/loadPending()`` found.
public struct HandoffLoad: Sendable {
    /// Readable pending links, oldest capture first.
    public var pending: [PendingLink]
    /// Records that were skipped, each with the reason.
    public var skipped: [HandoffStoreError]

    public init(pending: [PendingLink], skipped: [HandoffStoreError] = []) {
        self.pending = pending
        self.skipped = skipped
    }
}

/// Why a handoff record could not be written or read.
public enum HandoffStoreError: Error, Sendable, Hashable {
    /// The record's checksum does not match its contents.
    case corruptRecord(name: String)
    /// The record ends before its declared length.
    case truncatedRecord(name: String)
    /// The record is larger than any valid record can be.
    case oversizedRecord(name: String)
    /// The record was written by a layout version this build does not know.
    case unknownVersion(name: String, version: Int)
    /// The record decodes but holds an invalid link or field.
    case invalidRecord(name: String)
    /// The store has no room left (in-memory stores have a fixed capacity).
    case full
    /// An operating-system call failed (`errno`), e.g. opening, writing, fsync or rename.
    case io(operation: String, errno: Int32)
}
