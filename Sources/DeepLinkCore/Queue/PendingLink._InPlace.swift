// A record handled by address: the queue's slots, the resolver's pending set and its outbox hold
// records in place, and these read or copy them there without a whole-record copy in between.

extension PendingLink {
    /// Writes `source`'s value into `destination`, copying only the bytes in use.
    ///
    /// A record is ~750 bytes because its link (512), attribution (128) and account (64) live
    /// inline, but a typical capture uses a few dozen of them: a whole-record copy moves twelve cache
    /// lines where two would do. This copies the fixed fields, the account, and the used prefix of
    /// the link's and the attribution's buffers (rounded up to 16 bytes). The bytes past a buffer's
    /// count keep whatever `destination` held: every reader of a record (equality, hashing, the file
    /// format, the accessors) reads a buffer only up to its count, so the value is the same.
    ///
    /// `destination` must hold initialized memory (a record, or memory zeroed once): the untouched
    /// tails are read again when the record is copied whole.
    @usableFromInline
    static func _assign(
        _ destination: UnsafeMutablePointer<PendingLink>,
        compactlyFrom source: UnsafePointer<PendingLink>
    ) {
        let to = UnsafeMutableRawPointer(destination)
        let from = UnsafeRawPointer(source)
        destination.pointee.link._count = source.pointee.link._count
        destination.pointee.link._pathCount = source.pointee.link._pathCount
        _copyPrefix(to: to + _linkBytesOffset, from: from + _linkBytesOffset, count: Int(source.pointee.link._count))
        destination.pointee.source = source.pointee.source
        destination.pointee.capturedAtNanos = source.pointee.capturedAtNanos
        destination.pointee.id = source.pointee.id
        destination.pointee.installBeginTimestamp = source.pointee.installBeginTimestamp
        // The attribution: its used bytes, then its fixed fields (field ends, flags, click time),
        // which follow the buffer.
        let attribution = MemoryLayout<PendingLink>.offset(of: \.attribution)!
        let attributionBytes = attribution + MemoryLayout<LinkAttribution>.offset(of: \._bytes)!
        let attributionUsed = Int(source.pointee.attribution._ends[LinkAttribution._fieldCount - 1])
        _copyPrefix(to: to + attributionBytes, from: from + attributionBytes, count: attributionUsed)
        let fixedStart = attributionBytes + LinkAttribution.capacity
        let fixedEnd = attribution + MemoryLayout<LinkAttribution>.size
        (to + fixedStart).copyMemory(from: from + fixedStart, byteCount: fixedEnd - fixedStart)
        destination.pointee.account = source.pointee.account
    }

    /// Where the link's bytes start in a record (a constant once optimised).
    @inline(__always)
    static var _linkBytesOffset: Int { MemoryLayout<PendingLink>.offset(of: \.link._storage)! }

    /// Copies `count` bytes (at most the buffer's capacity, a multiple of 16) in 16-byte steps.
    @inline(__always)
    static func _copyPrefix(to destination: UnsafeMutableRawPointer, from source: UnsafeRawPointer, count: Int) {
        var offset = 0
        while offset < count {
            destination.storeBytes(
                of: source.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self),
                toByteOffset: offset,
                as: SIMD16<UInt8>.self
            )
            offset &+= 16
        }
    }
}

extension PendingLink {
    /// The link's whole byte storage (``DeepLink/capacity`` bytes, the path first) in the record
    /// at `record`, and its path's length, read where the record lies (passing the link by value
    /// would copy its whole 512-byte buffer first).
    @inline(__always)
    static func _withLinkStorage<R>(
        of record: UnsafePointer<PendingLink>,
        _ body: (_ storage: UnsafeRawBufferPointer, _ pathCount: Int) -> R
    ) -> R {
        let start = UnsafeRawPointer(record) + _linkBytesOffset
        return body(UnsafeRawBufferPointer(start: start, count: DeepLink.capacity), Int(record.pointee.link._pathCount))
    }
}
