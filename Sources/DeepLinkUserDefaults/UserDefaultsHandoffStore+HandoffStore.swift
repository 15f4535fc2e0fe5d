public import DeepLinkCore
import Foundation

extension UserDefaultsHandoffStore: HandoffStore {
    public func save(_ link: PendingLink) throws(HandoffStoreError) {
        try lock.withLock { (_: inout Void) throws(HandoffStoreError) in
            try write(link, to: pendingKey(link.id))
        }
    }

    /// The check and the write under one hold of the lock.
    public func saveUnlessConsumed(_ link: PendingLink) throws(HandoffStoreError) -> Bool {
        try lock.withLock { (_: inout Void) throws(HandoffStoreError) -> Bool in
            guard !isConsumed(link.identity) else { return false }
            try write(link, to: pendingKey(link.id))
            return true
        }
    }

    public func loadPending() throws(HandoffStoreError) -> HandoffLoad {
        try lock.withLock { (_: inout Void) throws(HandoffStoreError) -> HandoffLoad in
            var pending: [PendingLink] = []
            var skipped: [HandoffStoreError] = []
            let keys = defaults.dictionaryRepresentation().keys.filter { $0.hasPrefix(pendingPrefix) }
            for key in keys.sorted() {
                guard let id = pendingID(fromKey: key) else {
                    skipped.append(.invalidRecord(name: key))
                    continue
                }
                if exists(consumedIDKey(id)) {
                    // A consume interrupted after its mark: finish it.
                    try remove(key)
                    continue
                }
                switch readRecord(key, id: id) {
                case .none:
                    continue
                case .some(.success(let link)):
                    // Consumed by its install-begin timestamp: a duplicate, not pending.
                    guard link.identity.installBeginTimestamp == 0 || !isConsumed(link.identity) else {
                        try remove(key)
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
    }

    /// The check and the marks under one hold of the lock (exclusive within this process, as
    /// ``FileHandoffStore`` is across processes).
    public func markConsumed(_ link: PendingLink) throws(HandoffStoreError) -> Bool {
        try lock.withLock { (_: inout Void) throws(HandoffStoreError) -> Bool in
            let identity = link.identity
            guard !isConsumed(identity) else {
                try remove(pendingKey(link.id))
                return false
            }
            // The install-begin mark first: a kill between the marks leaves the link pending but
            // recognizably a duplicate, never routable twice.
            if identity.installBeginTimestamp != 0 {
                try write(link, to: consumedTimestampKey(identity.installBeginTimestamp))
            }
            try write(link, to: consumedIDKey(identity.id))
            try remove(pendingKey(link.id))
            return true
        }
    }

    public func wasConsumed(_ identity: CaptureIdentity) -> Bool {
        lock.withLock { _ in isConsumed(identity) }
    }

    public func restorePending(_ link: PendingLink) throws(HandoffStoreError) {
        try lock.withLock { (_: inout Void) throws(HandoffStoreError) in
            let identity = link.identity
            if identity.installBeginTimestamp != 0 { try remove(consumedTimestampKey(identity.installBeginTimestamp)) }
            try remove(consumedIDKey(identity.id))
            try write(link, to: pendingKey(link.id))
        }
    }

    public func discard(_ link: PendingLink) throws(HandoffStoreError) {
        try lock.withLock { (_: inout Void) throws(HandoffStoreError) in
            try remove(pendingKey(link.id))
        }
    }

    /// One lookup per half of ``CaptureIdentity/isSameCapture(as:)``; call with the lock held.
    func isConsumed(_ identity: CaptureIdentity) -> Bool {
        if exists(consumedIDKey(identity.id)) { return true }
        return identity.installBeginTimestamp != 0 && exists(consumedTimestampKey(identity.installBeginTimestamp))
    }
}
