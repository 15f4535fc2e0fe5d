// A record handled by address: the queue's slots, the resolver's pending set and its outbox hold
// records in place, and these read or copy them there without a whole-record copy in between.

extension PendingLink {
    /// Writes `source`'s value into `destination`, copying only the bytes in use.
    ///
    /// A record is ~750 bytes because its link (512), attribution (128) and account (64) bytes
    /// live inline, but a typical capture uses a few dozen of them: a whole-record copy moves
    /// twelve cache lines where two would do. This copies the used prefix of the link's bytes,
    /// the block of fixed fields (see ``PendingLink``'s layout), and the used prefixes of the
    /// attribution's and the account's bytes, each prefix rounded up to 16 bytes. The bytes past a
    /// buffer's count keep whatever `destination` held: every reader of a record (equality,
    /// hashing, the file format, the accessors) reads a buffer only up to its count, so the value
    /// is the same.
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
        _copyPrefix(to: to + _linkBytesOffset, from: from + _linkBytesOffset, count: Int(source.pointee.link._count))
        (to + _fixedFieldsOffset).copyMemory(from: from + _fixedFieldsOffset, byteCount: _fixedFieldsByteCount)
        let attribution = source.pointee.attribution._ends
        _copyPrefix(
            to: to + _attributionBytesOffset,
            from: from + _attributionBytesOffset,
            count: Int(attribution[attribution.count - 1])
        )
        _copyPrefix(
            to: to + _accountBytesOffset,
            from: from + _accountBytesOffset,
            count: Int(source.pointee._accountCount)
        )
    }

    /// Where the link's bytes start in a record (a constant once optimised).
    @inline(__always)
    static var _linkBytesOffset: Int { MemoryLayout<PendingLink>.offset(of: \.link._storage)! }

    /// Where the block of fixed fields starts: the link's count, which follows its bytes.
    @inline(__always)
    static var _fixedFieldsOffset: Int { MemoryLayout<PendingLink>.offset(of: \.link._count)! }

    /// The fixed fields' block runs up to the attribution's bytes, the last thing in the
    /// attribution. Every field but the three byte buffers lies in it (see
    /// ``_compactLayoutViolation()``, which a queue test checks).
    @inline(__always)
    static var _fixedFieldsByteCount: Int { _attributionBytesOffset - _fixedFieldsOffset }

    @inline(__always)
    static var _attributionBytesOffset: Int { MemoryLayout<PendingLink>.offset(of: \.attribution._bytes)! }

    @inline(__always)
    static var _accountBytesOffset: Int { MemoryLayout<PendingLink>.offset(of: \._accountBytes)! }

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

extension PendingLink {
    /// Testing: describes how the record's layout breaks what ``_assign(_:compactlyFrom:)`` relies
    /// on, or returns `nil`: every field but the three byte buffers lies in the fixed block, the
    /// buffers lie outside it, and in a queue slot the block fits one 64-byte cache line.
    @_spi(Testing)
    public static func _compactLayoutViolation() -> String? {
        let block = _fixedFieldsOffset..<(_fixedFieldsOffset + _fixedFieldsByteCount)
        func offset(_ path: PartialKeyPath<PendingLink>) -> Int { MemoryLayout<PendingLink>.offset(of: path)! }
        let fixed: [(String, Int, Int)] = [
            ("link._count", offset(\.link._count), MemoryLayout<UInt16>.size),
            ("link._pathCount", offset(\.link._pathCount), MemoryLayout<UInt16>.size),
            ("source", offset(\.source), MemoryLayout<LinkSource>.size),
            ("_accountCount", offset(\._accountCount), MemoryLayout<UInt8>.size),
            ("capturedAtNanos", offset(\.capturedAtNanos), MemoryLayout<UInt64>.size),
            ("id", offset(\.id), MemoryLayout<UInt64>.size),
            ("installBeginTimestamp", offset(\.installBeginTimestamp), MemoryLayout<UInt64>.size),
            ("attribution._ends", offset(\.attribution._ends), MemoryLayout<InlineArray<6, UInt8>>.size),
            ("attribution._present", offset(\.attribution._present), MemoryLayout<UInt8>.size),
            ("attribution.isTruncated", offset(\.attribution.isTruncated), MemoryLayout<Bool>.size),
            (
                "attribution.clickTimestampSeconds", offset(\.attribution.clickTimestampSeconds),
                MemoryLayout<UInt64>.size
            ),
        ]
        for (name, start, size) in fixed where !(block.contains(start) && start + size <= block.upperBound) {
            return "\(name) at \(start)..<\(start + size) lies outside the fixed block \(block)"
        }
        let buffers: [(String, Int, Int)] = [
            ("link._storage", _linkBytesOffset, DeepLink.capacity),
            ("attribution._bytes", _attributionBytesOffset, LinkAttribution.capacity),
            ("_accountBytes", _accountBytesOffset, AccountID.capacity),
        ]
        for (name, start, size) in buffers where block.overlaps(start..<(start + size)) {
            return "\(name) at \(start)..<\(start + size) overlaps the fixed block \(block)"
        }
        let inSlot = PendingLinkQueue._Storage.payloadOffset + block.lowerBound
        if inSlot / 64 != (inSlot + block.count - 1) / 64 {
            return "the fixed block spans two cache lines of a slot (slot offsets \(inSlot)..<\(inSlot + block.count))"
        }
        return nil
    }
}
