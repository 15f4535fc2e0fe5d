/// Byte-level decoding of WHATWG `application/x-www-form-urlencoded` names and values: `+` is a
/// space, a `%` followed by two hex digits is the byte they spell, and any other `%` stays literal.
///
/// Every function works on borrowed bytes and either streams the decoded bytes (``DecodedBytes``),
/// compares them with expected bytes, or writes them into a buffer the caller owns; none of them
/// allocates. Decoding never makes bytes longer, so a destination as large as the raw bytes is
/// always enough.
///
/// The decoded bytes are not necessarily UTF-8 (`%FF` decodes to the byte 0xFF): display code reads
/// them with U+FFFD for invalid sequences (as WHATWG does), validation sees them as they are.
///
/// Thread safety: stateless; every member may be called from any thread.
@usableFromInline
package enum FormDecoding {
    /// The decoded bytes of one raw name or value, produced one at a time.
    ///
    /// Thread safety: a value type over borrowed bytes; use it only while those bytes are alive.
    @usableFromInline
    package struct DecodedBytes: Sequence, IteratorProtocol {
        @usableFromInline
        internal let _raw: UnsafeRawBufferPointer

        @usableFromInline
        internal var _index: Int

        /// Decodes `raw`, which must stay valid while this value is used.
        @inlinable
        package init(_ raw: UnsafeRawBufferPointer) {
            self._raw = raw
            self._index = 0
        }

        /// The next decoded byte, or `nil` at the end.
        ///
        /// - Complexity: O(1).
        @inlinable
        package mutating func next() -> UInt8? {
            let count = _raw.count
            guard _index < count else { return nil }
            let byte = _raw[_index]
            switch byte {
            case UInt8(ascii: "+"):
                _index += 1
                return UInt8(ascii: " ")
            case UInt8(ascii: "%"):
                if _index + 2 < count {
                    let high = FormDecoding.hexValue(_raw[_index + 1])
                    let low = FormDecoding.hexValue(_raw[_index + 2])
                    if high | low < 16 {
                        _index += 3
                        return high &<< 4 | low
                    }
                }
                _index += 1
                return byte
            default:
                _index += 1
                return byte
            }
        }
    }

    /// The value of a hex digit (`0-9`, `a-f`, `A-F`), or 0xFF for any other byte.
    @inlinable
    package static func hexValue(_ byte: UInt8) -> UInt8 {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte &- UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte &- UInt8(ascii: "a") &+ 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte &- UInt8(ascii: "A") &+ 10
        default: 0xFF
        }
    }

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

    /// Decodes `raw` into `destination` and returns the number of bytes written, or `nil` (with
    /// `destination` partly written) when it does not fit. A destination of `raw.count` bytes always
    /// suffices.
    ///
    /// - Complexity: O(n).
    @inlinable
    package static func decode(_ raw: UnsafeRawBufferPointer, into destination: UnsafeMutableRawBufferPointer) -> Int? {
        if destination.count >= raw.count {
            // The usual case: it fits whatever the escapes are, so no per-byte room check.
            guard let source = raw.baseAddress, let target = destination.baseAddress else { return 0 }
            return _decode(source, count: raw.count, into: target)
        }
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
    /// bytes; returns the number of bytes written.
    ///
    /// Eight raw bytes without `%` or `+` are copied as one word; nothing past the decoded bytes is
    /// ever written.
    @usableFromInline
    internal static func _decode(_ source: UnsafeRawPointer, count: Int, into target: UnsafeMutableRawPointer) -> Int {
        var index = 0
        var written = 0
        // With 24 raw bytes left at least 8 decoded bytes follow (an escape takes 3), so a word may
        // be stored whole even when only its first bytes are plain: the rest is overwritten later
        // and nothing past the final count is touched.
        _decodeWords(source, count: count, at: &index, leaving: 24, into: target, at: &written)
        guard index < count else { return written }
        // Fewer than 24 raw bytes are left, which may decode to fewer than eight: they are decoded
        // the same way into a small buffer on the stack, where whole words may be stored, and
        // exactly the decoded bytes are copied out.
        var scratch: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        let tailStart = index
        let tailTarget = target + written
        // The closure captures constants only (one that captures state allocates in debug builds).
        let tailCount = withUnsafeMutableBytes(of: &scratch) { buffer in
            _decodeTail(source, count: count, from: tailStart, into: buffer, copyingTo: tailTarget)
        }
        return written &+ tailCount
    }

    /// Decodes the fewer than 24 raw bytes from `start` into `buffer` (32 bytes: the decoded rest is
    /// at most 23, and a word is stored only at 15 or below), then copies exactly the decoded bytes
    /// to `target`; returns their count.
    @inline(__always)
    internal static func _decodeTail(
        _ source: UnsafeRawPointer,
        count: Int,
        from start: Int,
        into buffer: UnsafeMutableRawBufferPointer,
        copyingTo target: UnsafeMutableRawPointer
    ) -> Int {
        let percents: UInt64 = 0x2525_2525_2525_2525
        let pluses: UInt64 = 0x2B2B_2B2B_2B2B_2B2B
        guard let local = buffer.baseAddress else { return 0 }
        var index = start
        var decoded = 0
        _decodeWords(source, count: count, at: &index, leaving: 8, into: local, at: &decoded)
        let left = count &- index
        if left > 0, count >= 8 {
            // The last bytes, read as the input's last word shifted down (zeros above them).
            let word = _word(source, count &- 8) &>> ((8 &- left) &<< 3)
            if _zeroBytes(word ^ percents) | _zeroBytes(word ^ pluses) == 0 {
                local.storeBytes(of: word.littleEndian, toByteOffset: decoded, as: UInt64.self)
                index = count
                decoded &+= left
            }
        }
        while index < count {
            local.storeBytes(of: _decodeEscape(source, at: &index, count: count), toByteOffset: decoded, as: UInt8.self)
            decoded &+= 1
        }
        _copy(local, count: decoded, to: target)
        return decoded
    }

    /// Decodes word by word while at least `reserve` raw bytes are left from `index`, storing each
    /// word whole at `written` before its escape (if any) overwrites the rest; moves both on. The
    /// caller vouches for room for a word at every `written` this reaches.
    @inline(__always)
    internal static func _decodeWords(
        _ source: UnsafeRawPointer,
        count: Int,
        at index: inout Int,
        leaving reserve: Int,
        into target: UnsafeMutableRawPointer,
        at written: inout Int
    ) {
        let percents: UInt64 = 0x2525_2525_2525_2525
        let pluses: UInt64 = 0x2B2B_2B2B_2B2B_2B2B
        while index &+ reserve <= count {
            let word = _word(source, index)
            target.storeBytes(of: word.littleEndian, toByteOffset: written, as: UInt64.self)
            let escapes = _zeroBytes(word ^ percents) | _zeroBytes(word ^ pluses)
            if escapes == 0 {
                index &+= 8
                written &+= 8
                continue
            }
            let plainCount = escapes.trailingZeroBitCount &>> 3
            index &+= plainCount
            written &+= plainCount
            target.storeBytes(
                of: _decodeEscape(source, at: &index, count: count),
                toByteOffset: written,
                as: UInt8.self
            )
            written &+= 1
        }
    }

    /// Copies `count` bytes (at most 24) with a few possibly overlapping stores, none outside them.
    @inline(__always)
    internal static func _copy(_ source: UnsafeRawPointer, count: Int, to target: UnsafeMutableRawPointer) {
        if count >= 8 {
            target.storeBytes(of: source.loadUnaligned(as: UInt64.self), as: UInt64.self)
            if count > 16 {
                target.storeBytes(
                    of: source.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
                    toByteOffset: 8,
                    as: UInt64.self
                )
            }
            let last = count &- 8
            target.storeBytes(
                of: source.loadUnaligned(fromByteOffset: last, as: UInt64.self),
                toByteOffset: last,
                as: UInt64.self
            )
        } else if count >= 4 {
            target.storeBytes(of: source.loadUnaligned(as: UInt32.self), as: UInt32.self)
            let last = count &- 4
            target.storeBytes(
                of: source.loadUnaligned(fromByteOffset: last, as: UInt32.self),
                toByteOffset: last,
                as: UInt32.self
            )
        } else if count >= 2 {
            target.storeBytes(of: source.loadUnaligned(as: UInt16.self), as: UInt16.self)
            let last = count &- 2
            target.storeBytes(
                of: source.loadUnaligned(fromByteOffset: last, as: UInt16.self),
                toByteOffset: last,
                as: UInt16.self
            )
        } else if count == 1 {
            target.storeBytes(of: source.load(as: UInt8.self), as: UInt8.self)
        }
    }

    /// Decodes the byte at `index` (a plain byte, `+`, or a `%` that may start a valid escape) and
    /// moves `index` past what it consumed.
    @inline(__always)
    internal static func _decodeEscape(_ source: UnsafeRawPointer, at index: inout Int, count: Int) -> UInt8 {
        let byte = source.load(fromByteOffset: index, as: UInt8.self)
        index &+= 1
        if byte == UInt8(ascii: "+") { return UInt8(ascii: " ") }
        guard byte == UInt8(ascii: "%"), index &+ 1 < count else { return byte }
        let high = _nibble(source.load(fromByteOffset: index, as: UInt8.self))
        let low = _nibble(source.load(fromByteOffset: index &+ 1, as: UInt8.self))
        guard high | low < 16 else { return byte }
        index &+= 2
        return high &<< 4 | low
    }

    /// ``hexValue(_:)`` by table: the digit's value, or a value of 16 or more.
    @inline(__always)
    internal static func _nibble(_ byte: UInt8) -> UInt8 {
        // One row per high nibble, each entry `0` plus the digit's value (`:` is 10, ..., `?` is
        // 15) or `z` for a byte that is no hex digit; each row ends in a line break, hence the
        // `byte >> 4` in the index.
        let table: StaticString = """
            zzzzzzzzzzzzzzzz
            zzzzzzzzzzzzzzzz
            zzzzzzzzzzzzzzzz
            0123456789zzzzzz
            z:;<=>?zzzzzzzzz
            zzzzzzzzzzzzzzzz
            z:;<=>?zzzzzzzzz
            zzzzzzzzzzzzzzzz
            zzzzzzzzzzzzzzzz
            zzzzzzzzzzzzzzzz
            zzzzzzzzzzzzzzzz
            zzzzzzzzzzzzzzzz
            zzzzzzzzzzzzzzzz
            zzzzzzzzzzzzzzzz
            zzzzzzzzzzzzzzzz
            zzzzzzzzzzzzzzzz
            """
        return table.utf8Start[Int(byte) &+ Int(byte &>> 4)] &- UInt8(ascii: "0")
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
