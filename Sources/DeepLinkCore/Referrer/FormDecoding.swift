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
        let percents: UInt64 = 0x2525_2525_2525_2525
        let pluses: UInt64 = 0x2B2B_2B2B_2B2B_2B2B
        var index = 0
        var written = 0
        // With 24 raw bytes left at least 8 decoded bytes follow (an escape takes 3), so a word may
        // be stored whole even when only its first bytes are plain: the rest is overwritten later
        // and nothing past the final count is touched.
        while index &+ 24 <= count {
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
        while index &+ 8 <= count {
            let word = _word(source, index)
            let escapes = _zeroBytes(word ^ percents) | _zeroBytes(word ^ pluses)
            if escapes == 0 {
                // written <= index, so the room for `count` bytes holds these eight.
                target.storeBytes(of: word.littleEndian, toByteOffset: written, as: UInt64.self)
                index &+= 8
                written &+= 8
                continue
            }
            let plainEnd = index &+ escapes.trailingZeroBitCount &>> 3
            while index < plainEnd {
                target.storeBytes(
                    of: source.load(fromByteOffset: index, as: UInt8.self),
                    toByteOffset: written,
                    as: UInt8.self
                )
                index &+= 1
                written &+= 1
            }
            target.storeBytes(
                of: _decodeEscape(source, at: &index, count: count),
                toByteOffset: written,
                as: UInt8.self
            )
            written &+= 1
        }
        while index < count {
            target.storeBytes(
                of: _decodeEscape(source, at: &index, count: count),
                toByteOffset: written,
                as: UInt8.self
            )
            written &+= 1
        }
        return written
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
