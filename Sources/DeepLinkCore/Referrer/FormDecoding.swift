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
        // The usual case: it fits whatever the escapes are, so no per-byte room check.
        guard destination.count >= raw.count, let source = raw.baseAddress, let target = destination.baseAddress
        else { return _decodeCheckingRoom(raw, into: destination) }
        return _decode(source, count: raw.count, into: target)
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
    /// bytes; returns the number of bytes written. Nothing past the decoded bytes is ever written,
    /// and nothing outside the `count` bytes is ever read.
    ///
    /// While 64 or more raw bytes are left, at least 16 decoded bytes follow any position a block
    /// reaches (an escape takes 3), so blocks go straight to `target`
    /// (``_decodeBlocks(_:from:before:into:at:)``); the rest, fewer than 64 bytes, is decoded
    /// straight from `source` too (``_decodeTail(_:from:count:into:)``), never through a copy: a
    /// load from freshly stored scratch bytes that straddles two stores waits for both.
    @usableFromInline
    internal static func _decode(_ source: UnsafeRawPointer, count: Int, into target: UnsafeMutableRawPointer) -> Int {
        let (index, written) = _decodeBlocks(source, from: 0, before: count &- 63, into: target, at: 0)
        guard index < count else { return written }
        return written &+ _decodeTail(source, from: index, count: count, into: target + written)
    }

    /// Decodes the bytes `start..<count` at `source` (fewer than 64) into `target`; returns the
    /// number of bytes written.
    ///
    /// The `%`s and `+`s of all of them are found first, as one 64-bit mask: sixteen bytes at a
    /// time, the last few as the value's last sixteen bytes (or, in a value under sixteen bytes, as
    /// its bytes with zeros after them), so no load leaves the `count` bytes. Each of them takes at
    /// most three raw bytes for one, so the decoded bytes are at least `rest - 2 * marks`: below
    /// that, a run of plain bytes goes out as one sixteen-byte store (the bytes past the run are
    /// overwritten later, in order); near the end it is copied exactly.
    @inline(__always)
    internal static func _decodeTail(
        _ source: UnsafeRawPointer,
        from start: Int,
        count: Int,
        into target: UnsafeMutableRawPointer
    ) -> Int {
        let raw = source + start
        let rest = count &- start
        var marks: UInt64 = 0
        var offset = 0
        while offset &+ 16 <= rest {
            let block = raw.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self)
            marks |= UInt64(_escapeMarks(block)) &<< offset
            offset &+= 16
        }
        if offset < rest {
            if count >= 16 {
                // The value's last sixteen bytes, without the ones already marked.
                let lastBlock = source.loadUnaligned(fromByteOffset: count &- 16, as: SIMD16<UInt8>.self)
                let last = UInt64(_escapeMarks(lastBlock))
                marks |= (last &>> (16 &- (rest &- offset))) &<< offset
            } else {
                // The whole value is under sixteen bytes (so `start` and `offset` are 0).
                marks |= UInt64(_escapeMarks(_loadShort(raw, count: rest)))
            }
        }
        let lowerBound = rest &- 2 &* marks.nonzeroBitCount
        var index = 0
        var written = 0
        while marks != 0 {
            let mark = marks.trailingZeroBitCount
            marks &= marks &- 1
            // The two bytes after a valid `%` are hex digits, never marks, so `mark >= index`.
            _copyRun(raw, from: index, to: mark, into: target, at: written, lowerBound: lowerBound)
            written &+= mark &- index
            index = mark
            target.storeBytes(of: _decodeTailEscape(raw, at: &index, rest: rest), toByteOffset: written, as: UInt8.self)
            written &+= 1
        }
        _copyRun(raw, from: index, to: rest, into: target, at: written, lowerBound: lowerBound)
        return written &+ (rest &- index)
    }

    /// Copies the plain bytes `from..<to` at `raw` to `written`: as one
    /// sixteen-byte load and store when the store stays below `lowerBound` (decoded bytes that
    /// will be written later anyway), else exactly. (Each decoded byte takes one raw byte or more,
    /// so sixteen decoded bytes from `written` on need sixteen raw bytes from `index` on: the load
    /// stays inside the bytes being decoded too.)
    @inline(__always)
    internal static func _copyRun(
        _ raw: UnsafeRawPointer,
        from index: Int,
        to end: Int,
        into target: UnsafeMutableRawPointer,
        at written: Int,
        lowerBound: Int
    ) {
        let length = end &- index
        if written &+ 16 <= lowerBound, length <= 16 {
            target.storeBytes(
                of: raw.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self),
                toByteOffset: written,
                as: SIMD16<UInt8>.self
            )
        } else if length > 0 {
            _copy(raw + index, count: length, to: target + written)
        }
    }

    /// ``_decodeEscape(_:at:)`` for the `%` or `+` at `index` of the `rest` bytes at `raw`: a `%`
    /// without two bytes after it stays literal.
    @inline(__always)
    internal static func _decodeTailEscape(_ raw: UnsafeRawPointer, at index: inout Int, rest: Int) -> UInt8 {
        let byte = raw.load(fromByteOffset: index, as: UInt8.self)
        index &+= 1
        if byte == UInt8(ascii: "+") { return UInt8(ascii: " ") }
        guard index &+ 1 < rest else { return byte }
        let high = _nibble(raw.load(fromByteOffset: index, as: UInt8.self))
        let low = _nibble(raw.load(fromByteOffset: index &+ 1, as: UInt8.self))
        guard high | low < 16 else { return byte }
        index &+= 2
        return high &<< 4 | low
    }

    /// The `count` bytes at `source` (1 to 15) as sixteen lanes, zeros after them, read with loads
    /// inside them only (two overlapping words, or bytes for fewer than four).
    @inline(__always)
    internal static func _loadShort(_ source: UnsafeRawPointer, count: Int) -> SIMD16<UInt8> {
        var low: UInt64 = 0
        var high: UInt64 = 0
        if count >= 8 {
            low = _word(source, 0)
            // The last word's bytes from the ninth on.
            if count > 8 { high = _word(source, count &- 8) &>> ((16 &- count) &<< 3) }
        } else if count >= 4 {
            let first = UInt32(littleEndian: source.loadUnaligned(as: UInt32.self))
            let last = UInt32(littleEndian: source.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self))
            // The two overlap in the same bytes, so `|` keeps them.
            low = UInt64(first) | UInt64(last) &<< ((count &- 4) &<< 3)
        } else {
            for offset in 0..<count {
                low |= UInt64(source.load(fromByteOffset: offset, as: UInt8.self)) &<< (offset &<< 3)
            }
        }
        return unsafeBitCast((low.littleEndian, high.littleEndian), to: SIMD16<UInt8>.self)
    }

    /// Decodes sixteen raw bytes at a time while `index` is before `limit`: each block is stored
    /// whole at `written`, which puts the bytes before its first `%` or `+` in place; the `%`s and
    /// `+`s are found with one vector comparison per byte value, and after each one is decoded the
    /// sixteen bytes that follow it are stored after it. Moves both positions on.
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
        at startWritten: Int
    ) -> (index: Int, written: Int) {
        var index = start
        var written = startWritten
        while index < limit {
            let blockStart = index
            let block = source.loadUnaligned(fromByteOffset: blockStart, as: SIMD16<UInt8>.self)
            target.storeBytes(of: block, toByteOffset: written, as: SIMD16<UInt8>.self)
            var marks = _escapeMarks(block)
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

    /// Bit `i` set where byte `i` of `block` is `%` or `+`.
    ///
    /// Two vector comparisons (portable SIMD: `pcmpeqb` on x86-64, `cmeq` on arm64); each matching
    /// lane keeps its own bit of a byte, so the lanes of each half, summed by one multiplication,
    /// give that half's eight bits.
    @inline(__always)
    internal static func _escapeMarks(_ block: SIMD16<UInt8>) -> UInt32 {
        let percents = SIMD16<UInt8>(repeating: UInt8(ascii: "%"))
        let pluses = SIMD16<UInt8>(repeating: UInt8(ascii: "+"))
        return _laneBits(_laneWords((block .== percents) .| (block .== pluses)))
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
    /// after a `%` must be readable and part of the bytes being decoded (blocks stop 63 bytes
    /// before the end).
    @inline(__always)
    internal static func _decodeEscape(_ source: UnsafeRawPointer, at index: inout Int) -> UInt8 {
        let byte = source.load(fromByteOffset: index, as: UInt8.self)
        index &+= 1
        if byte == UInt8(ascii: "+") { return UInt8(ascii: " ") }
        let high = _nibble(source.load(fromByteOffset: index, as: UInt8.self))
        let low = _nibble(source.load(fromByteOffset: index &+ 1, as: UInt8.self))
        guard high | low < 16 else { return byte }
        index &+= 2
        return high &<< 4 | low
    }

    /// ``hexValue(_:)`` by table: the digit's value, or a value of 16 or more.
    @inline(__always)
    internal static func _nibble(_ byte: UInt8) -> UInt8 {
        // One entry per byte (sixteen to a line; a `\` joins the lines): `0` plus the digit's value
        // (`:` is 10, ..., `?` is 15), or `z` for a byte that is no hex digit.
        let table: StaticString = """
            zzzzzzzzzzzzzzzz\
            zzzzzzzzzzzzzzzz\
            zzzzzzzzzzzzzzzz\
            0123456789zzzzzz\
            z:;<=>?zzzzzzzzz\
            zzzzzzzzzzzzzzzz\
            z:;<=>?zzzzzzzzz\
            zzzzzzzzzzzzzzzz\
            zzzzzzzzzzzzzzzz\
            zzzzzzzzzzzzzzzz\
            zzzzzzzzzzzzzzzz\
            zzzzzzzzzzzzzzzz\
            zzzzzzzzzzzzzzzz\
            zzzzzzzzzzzzzzzz\
            zzzzzzzzzzzzzzzz\
            zzzzzzzzzzzzzzzz
            """
        return table.utf8Start[Int(byte)] &- UInt8(ascii: "0")
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
