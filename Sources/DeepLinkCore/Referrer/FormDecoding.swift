/// Byte-level decoding of WHATWG `application/x-www-form-urlencoded` names and values: `+` is a
/// space, a `%` followed by two hex digits is the byte they spell, and any other `%` stays literal.
///
/// Every function works on borrowed bytes and either streams the decoded bytes (``DecodedBytes``),
/// compares them with expected bytes, or writes them into a buffer the caller owns; none of them
/// allocates. Decoding never makes bytes longer, so a destination as large as the raw bytes is
/// always enough; one with ``blockSlack`` bytes more is decoded fastest (whole blocks stored in
/// place, no scratch copy), and its bytes past the decoded ones are then left unspecified.
///
/// The decoded bytes are not necessarily UTF-8 (`%FF` decodes to the byte 0xFF): display code reads
/// them with U+FFFD for invalid sequences (as WHATWG does), validation sees them as they are.
///
/// Thread safety: stateless; every member may be called from any thread.
@usableFromInline
package enum FormDecoding {
    /// The number of bytes `raw` decodes to.
    ///
    /// - Complexity: O(n).
    @inlinable
    package static func decodedCount(_ raw: UnsafeRawBufferPointer) -> Int {
        var count = 0
        var bytes = DecodedBytes(raw)
        while bytes.next() != nil { count += 1 }
        return count
    }

    /// How many bytes of room beyond `raw.count` let ``decode(_:into:)`` store whole sixteen-byte
    /// blocks into the destination to the end, instead of finishing in scratch space and copying
    /// exactly the decoded bytes out: a block's stores end at most sixteen bytes past the raw
    /// position it reached, and that position never passes `raw.count`.
    ///
    /// The copy out is what this saves. It loads bytes that stores of mixed widths have just
    /// written, and such a load waits until they reach the cache.
    @inlinable package static var blockSlack: Int { 16 }

    /// Decodes `raw` into `destination` and returns the number of bytes written, or `nil` (with
    /// `destination` partly written) when it does not fit. A destination of `raw.count` bytes always
    /// suffices.
    ///
    /// Bytes of `destination` past the returned count are unspecified afterwards: with
    /// ``blockSlack`` bytes of room to spare, whole blocks are stored there. Nothing outside
    /// `destination` is ever written.
    ///
    /// - Complexity: O(n).
    @inlinable
    package static func decode(_ raw: UnsafeRawBufferPointer, into destination: UnsafeMutableRawBufferPointer) -> Int? {
        decode(raw, into: destination, bytesAfter: 0)
    }

    /// ``decode(_:into:)`` for a value inside a larger buffer, followed by `bytesAfter` readable
    /// bytes of it, the first of which is no hex digit (a field's `&`): with 18 or more, the value's
    /// last bytes are decoded straight from the buffer instead of from a copy.
    @inlinable
    package static func decode(
        _ raw: UnsafeRawBufferPointer,
        into destination: UnsafeMutableRawBufferPointer,
        bytesAfter: Int
    ) -> Int? {
        // The usual case: it fits whatever the escapes are, so no per-byte room check.
        guard destination.count >= raw.count, let source = raw.baseAddress, let target = destination.baseAddress
        else { return _decodeCheckingRoom(raw, into: destination) }
        let followed = bytesAfter >= 18
        guard destination.count &- raw.count >= blockSlack else {
            return _decode(source, count: raw.count, into: target, followed: followed)
        }
        return followed
            ? _decodeFollowedWithSlack(source, count: raw.count, into: target)
            : _decodeWithSlack(source, count: raw.count, into: target)
    }

    /// ``decode(_:into:)`` byte by byte, checking the room for each: a destination smaller than
    /// the raw bytes (or no bytes at all).
    @usableFromInline
    internal static func _decodeCheckingRoom(
        _ raw: UnsafeRawBufferPointer,
        into destination: UnsafeMutableRawBufferPointer
    ) -> Int? {
        var written = 0
        var bytes = DecodedBytes(raw)
        while let byte = bytes.next() {
            guard written < destination.count else { return nil }
            destination[written] = byte
            written += 1
        }
        return written
    }

    /// Decodes the `count` bytes at `source` into `target`, which has room for at least `count`
    /// bytes; returns the number of bytes written. Nothing past the decoded bytes is ever written.
    /// `followed`: 18 readable bytes or more follow the `count`, the first of which is no hex digit.
    ///
    /// While 64 or more raw bytes are left, at least 16 decoded bytes follow any position a block
    /// reaches (an escape takes 3), so blocks go straight to `target`
    /// (``_decodeBlocks(_:from:before:into:at:marksBefore:)``); the rest (fewer than 64) is decoded
    /// the same way in stack scratch space, and exactly the decoded bytes are copied out. A
    /// followed rest is decoded straight from `source`; any other from a copy with zeros after it.
    @usableFromInline
    internal static func _decode(
        _ source: UnsafeRawPointer,
        count: Int,
        into target: UnsafeMutableRawPointer,
        followed: Bool
    ) -> Int {
        let (index, written) = _decodeBlocks(source, from: 0, before: count &- 63, into: target, at: 0)
        guard index < count else { return written }
        let restTarget = target + written
        // The closure captures constants only (one that captures state allocates in debug builds).
        let restWritten = withUnsafeTemporaryAllocation(byteCount: 256, alignment: 16) { scratch in
            _decodeRest(source, from: index, to: count, followed: followed, scratch: scratch, into: restTarget)
        }
        return written &+ restWritten
    }

    /// ``_decode(_:count:into:followed:)`` into a target with ``blockSlack`` bytes of room past
    /// `count`: blocks go straight to `target` while 34 raw bytes are left (what a block may read),
    /// the rest is copied into stack scratch space with zeros after it and decoded from there,
    /// straight to `target` as well. Bytes past the decoded ones are left unspecified.
    @usableFromInline
    internal static func _decodeWithSlack(
        _ source: UnsafeRawPointer,
        count: Int,
        into target: UnsafeMutableRawPointer
    ) -> Int {
        // Blocks that start before `count - 33` read and store before `count`.
        let (index, written) = _decodeBlocks(source, from: 0, before: count &- 33, into: target, at: 0)
        guard index < count else { return written }
        let rest = source + index
        let restCount = count &- index
        let restTarget = target + written
        // The closure captures constants only (one that captures state allocates in debug builds).
        // The rest is fewer than 34 bytes: its copy and the zeros after it fit in 96.
        let restWritten = withUnsafeTemporaryAllocation(byteCount: 96, alignment: 16) { scratch in
            guard let raw = scratch.baseAddress else { return 0 }
            return _decodePadded(rest, count: restCount, copyingInto: raw, into: restTarget)
        }
        return written &+ restWritten
    }

    /// ``_decode(_:count:into:followed:)`` of a followed value into a target with ``blockSlack``
    /// bytes of room past `count`: every block straight from `source` to `target`, marks past
    /// `count` left out (the out-of-line entry to ``_decodeValue(_:from:to:into:)``). Bytes past
    /// the decoded ones are left unspecified.
    @usableFromInline
    internal static func _decodeFollowedWithSlack(
        _ source: UnsafeRawPointer,
        count: Int,
        into target: UnsafeMutableRawPointer
    ) -> Int {
        _decodeValue(source, from: 0, to: count, into: target)
    }

    /// Decodes the bytes `start..<end` at `source` (at least 18 readable bytes after them, the
    /// first no hex digit) into `target` from its start, marks at `end` or later left out; returns
    /// the decoded count. Stores reach sixteen bytes past the decoded bytes.
    ///
    /// Marks at `end` or later are plain bytes: a block that starts before `end` reads at most 34
    /// bytes from its start, 18 past `end`; a `%` just before `end` reads the byte after the value,
    /// no hex digit, and stays literal.
    @inline(__always)
    internal static func _decodeValue(
        _ source: UnsafeRawPointer,
        from start: Int,
        to end: Int,
        into target: UnsafeMutableRawPointer
    ) -> Int {
        var (index, written) = _decodeBlocks(source, from: start, before: end, into: target, at: 0, marksBefore: end)
        // The last block ran past `end` over plain bytes, one decoded byte each.
        written &-= index &- end
        return written
    }

    /// The fewer than 64 bytes `start..<end` at `source` decoded into the last 128 bytes of
    /// `scratch` (256), then exactly the decoded bytes copied to `target`; returns their count.
    /// Followed (see ``_decode(_:count:into:followed:)``), they are read where they are; else
    /// copied into the first 128 bytes, zeros after them. Stores reach sixteen bytes past the
    /// decoded bytes: inside the 128.
    @inline(__always)
    internal static func _decodeRest(
        _ source: UnsafeRawPointer,
        from start: Int,
        to end: Int,
        followed: Bool,
        scratch: UnsafeMutableRawBufferPointer,
        into target: UnsafeMutableRawPointer
    ) -> Int {
        guard let raw = scratch.baseAddress else { return 0 }
        let decoded = raw + 128
        let written =
            followed
            ? _decodeValue(source, from: start, to: end, into: decoded)
            : _decodePadded(source + start, count: end &- start, copyingInto: raw, into: decoded)
        _copy(UnsafeRawPointer(decoded), count: written, to: target)
        return written
    }

    /// Copies the `count` raw bytes at `source` into `raw` (room for `count + 48`) with zeros
    /// after them, as far as a block that starts before `count` reads (33 bytes past its start),
    /// and decodes the copy into `target` from its start; returns the decoded count. The zeros are
    /// plain bytes, so a block may run past the end (each stands for itself), and a `%` near the
    /// end reads zeros after it, no hex digits, as if it read nothing. Stores reach sixteen bytes
    /// past the decoded bytes.
    @inline(__always)
    internal static func _decodePadded(
        _ source: UnsafeRawPointer,
        count: Int,
        copyingInto raw: UnsafeMutableRawPointer,
        into target: UnsafeMutableRawPointer
    ) -> Int {
        _copy(source, count: count, to: raw)
        raw.storeBytes(of: SIMD16<UInt8>(), toByteOffset: count, as: SIMD16<UInt8>.self)
        raw.storeBytes(of: SIMD16<UInt8>(), toByteOffset: count &+ 16, as: SIMD16<UInt8>.self)
        raw.storeBytes(of: SIMD16<UInt8>(), toByteOffset: count &+ 32, as: SIMD16<UInt8>.self)
        var (index, written) = _decodeBlocks(UnsafeRawPointer(raw), from: 0, before: count, into: target, at: 0)
        // The last block may have run past `count` over zeros, one decoded byte each.
        written &-= index &- count
        return written
    }

    /// Decodes sixteen raw bytes at a time while `index` is before `limit`: each block is stored
    /// whole at `written`, which puts the bytes before its first `%` or `+` in place; the `%`s and
    /// `+`s are found with one vector comparison per byte value, and after each one is decoded the
    /// sixteen bytes that follow it are stored after it. Moves both positions on.
    ///
    /// With `end`, marks at `end` or later are left out (plain bytes): the value ends there and
    /// what follows it is readable but not its own.
    ///
    /// The caller vouches that sixteen bytes may be read up to 18 bytes past every `index` before
    /// `limit`, that the bytes read past the end of the value are no hex digits, and that sixteen
    /// bytes may be stored at every `written` this reaches.
    @inline(__always)
    internal static func _decodeBlocks(
        _ source: UnsafeRawPointer,
        from start: Int,
        before limit: Int,
        into target: UnsafeMutableRawPointer,
        at startWritten: Int,
        marksBefore end: Int? = nil
    ) -> (index: Int, written: Int) {
        var index = start
        var written = startWritten
        while index < limit {
            let blockStart = index
            let block = source.loadUnaligned(fromByteOffset: blockStart, as: SIMD16<UInt8>.self)
            target.storeBytes(of: block, toByteOffset: written, as: SIMD16<UInt8>.self)
            var marks = _escapeMarks(block)
            if let end {
                let lanes = end &- blockStart
                marks &= lanes >= 16 ? 0xFFFF : (1 &<< UInt32(truncatingIfNeeded: lanes)) &- 1
            }
            if marks == 0 {
                index &+= 16
                written &+= 16
                continue
            }
            // The bytes from `index` up to the next mark are in place: stored from `index` on.
            // The two bytes after a valid `%` are hex digits, never marks, so the lowest mark
            // left is always the next one to decode.
            repeat {
                let escape = blockStart &+ marks.trailingZeroBitCount
                marks &= marks &- 1
                written &+= escape &- index
                index = escape
                target.storeBytes(
                    of: _decodeEscape(source, at: &index),
                    toByteOffset: written,
                    as: UInt8.self
                )
                written &+= 1
                target.storeBytes(
                    of: source.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self),
                    toByteOffset: written,
                    as: SIMD16<UInt8>.self
                )
            } while marks != 0
            // The rest of the block is in place too (stored from `index` on).
            let blockEnd = blockStart &+ 16
            if index < blockEnd {
                written &+= blockEnd &- index
                index = blockEnd
            }
        }
        return (index, written)
    }

    /// Bit `i` set where byte `i` of `block` is `%` or `+`: two vector comparisons (portable SIMD:
    /// `pcmpeqb` on x86-64, `cmeq` on arm64) and their ``_laneMask(_:)``.
    @inline(__always)
    internal static func _escapeMarks(_ block: SIMD16<UInt8>) -> UInt32 {
        let percents = SIMD16<UInt8>(repeating: UInt8(ascii: "%"))
        let pluses = SIMD16<UInt8>(repeating: UInt8(ascii: "+"))
        return _laneMask((block .== percents) .| (block .== pluses))
    }

    /// Copies `count` bytes with sixteen-byte loads and stores (the last one overlapping the one
    /// before), or under sixteen bytes with two smaller ones; none outside the `count` bytes.
    @inline(__always)
    internal static func _copy(_ source: UnsafeRawPointer, count: Int, to target: UnsafeMutableRawPointer) {
        if count >= 16 {
            var offset = 0
            while offset &+ 16 < count {
                target.storeBytes(
                    of: source.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self),
                    toByteOffset: offset,
                    as: SIMD16<UInt8>.self
                )
                offset &+= 16
            }
            let last = count &- 16
            target.storeBytes(
                of: source.loadUnaligned(fromByteOffset: last, as: SIMD16<UInt8>.self),
                toByteOffset: last,
                as: SIMD16<UInt8>.self
            )
        } else if count >= 8 {
            _copyFirstAndLast(UInt64.self, source, count: count, to: target)
        } else if count >= 4 {
            _copyFirstAndLast(UInt32.self, source, count: count, to: target)
        } else if count >= 2 {
            _copyFirstAndLast(UInt16.self, source, count: count, to: target)
        } else if count == 1 {
            target.storeBytes(of: source.load(as: UInt8.self), as: UInt8.self)
        }
    }

    /// Copies `count` bytes (one to two `Word`s' worth) as the first and the last `Word` of them,
    /// which overlap when `count` is less than two words.
    @inline(__always)
    internal static func _copyFirstAndLast<Word: FixedWidthInteger>(
        _: Word.Type,
        _ source: UnsafeRawPointer,
        count: Int,
        to target: UnsafeMutableRawPointer
    ) {
        let last = count &- MemoryLayout<Word>.size
        let first = source.loadUnaligned(as: Word.self)
        let tail = source.loadUnaligned(fromByteOffset: last, as: Word.self)
        target.storeBytes(of: first, as: Word.self)
        target.storeBytes(of: tail, toByteOffset: last, as: Word.self)
    }

    /// Decodes the `%` or `+` at `index` and moves `index` past what it consumed. The two bytes
    /// after a `%` must be readable; past the end of the bytes being decoded they must be no hex
    /// digits (as the zeros after a scratch copy, or as bytes that are still within `count`).
    @inline(__always)
    internal static func _decodeEscape(_ source: UnsafeRawPointer, at index: inout Int) -> UInt8 {
        let byte = source.load(fromByteOffset: index, as: UInt8.self)
        index &+= 1
        if byte == UInt8(ascii: "+") { return UInt8(ascii: " ") }
        let high = Hex.digitValue(source.load(fromByteOffset: index, as: UInt8.self))
        let low = Hex.digitValue(source.load(fromByteOffset: index &+ 1, as: UInt8.self))
        guard high | low < 16 else { return byte }
        index &+= 2
        return high &<< 4 | low
    }

    /// Whether `raw` decodes to exactly `expected`, compared byte by byte without materialising.
    ///
    /// - Complexity: O(n).
    @inlinable
    package static func decoded(_ raw: UnsafeRawBufferPointer, equals expected: UnsafeRawBufferPointer) -> Bool {
        // A decoded byte takes one to three raw bytes, which bounds the raw length quickly.
        guard raw.count >= expected.count, raw.count <= expected.count &* 3 else { return false }
        var bytes = DecodedBytes(raw)
        for index in 0..<expected.count {
            guard let byte = bytes.next(), byte == expected[index] else { return false }
        }
        return bytes.next() == nil
    }

    /// Whether `raw` decodes to exactly the UTF-8 of `expected` (no allocation).
    ///
    /// - Complexity: O(n).
    @inlinable
    package static func decoded(_ raw: UnsafeRawBufferPointer, equals expected: StaticString) -> Bool {
        expected.withUTF8Buffer { decoded(raw, equals: UnsafeRawBufferPointer($0)) }
    }

    /// Whether `raw` decodes to exactly the UTF-8 of `expected`, without copying or allocating for
    /// native strings.
    ///
    /// - Complexity: O(n).
    @inlinable
    package static func decoded(_ raw: UnsafeRawBufferPointer, equals expected: String) -> Bool {
        let contiguous = expected.utf8.withContiguousStorageIfAvailable {
            decoded(raw, equals: UnsafeRawBufferPointer($0))
        }
        if let contiguous { return contiguous }
        var bytes = DecodedBytes(raw)
        for expectedByte in expected.utf8 {
            guard let byte = bytes.next(), byte == expectedByte else { return false }
        }
        return bytes.next() == nil
    }

    /// Whether `raw` looks like a form that was percent-encoded a second time: it has no raw `=`
    /// and no raw `&`, but an encoded one (`%3D` or `%26`, either case) inside. Such referrers are
    /// decoded once and parsed again.
    ///
    /// - Complexity: O(n).
    @inlinable
    package static func isDoubleEncoded(_ raw: UnsafeRawBufferPointer) -> Bool {
        var sawEncodedSeparator = false
        var index = 0
        let count = raw.count
        while index < count {
            let byte = raw[index]
            if byte == UInt8(ascii: "=") || byte == UInt8(ascii: "&") { return false }
            if byte == UInt8(ascii: "%"), index + 2 < count {
                let high = raw[index + 1]
                let low = raw[index + 2]
                if (high == UInt8(ascii: "3") && (low == UInt8(ascii: "D") || low == UInt8(ascii: "d")))
                    || (high == UInt8(ascii: "2") && low == UInt8(ascii: "6"))
                {
                    sawEncodedSeparator = true
                }
            }
            index += 1
        }
        return sawEncodedSeparator
    }
}
