// The word-at-a-time (SWAR) and SIMD pieces of the referrer scan (``_scanReferrer``).

#if arch(x86_64)
internal import CLaneMask
#endif

let _equalSigns: UInt64 = 0x3D3D_3D3D_3D3D_3D3D

/// Nonzero when `word` has a zero byte, and then its lowest set bit is the high bit of the first
/// (lowest-addressed) zero byte. Bits above it may be false positives (a borrow runs upwards),
/// which finding the first match never reads.
@inline(__always)
internal func _zeroBytes(_ word: UInt64) -> UInt64 {
    (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
}

/// The high bit of every zero byte of `word`, and no other bit: unlike ``_zeroBytes(_:)`` no
/// borrow crosses bytes, so every match in a word may be read.
@inline(__always)
internal func _exactZeroBytes(_ word: UInt64) -> UInt64 {
    let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    return ~(((word & lows) &+ lows) | word | lows)
}

@inline(__always)
internal func _word(_ base: UnsafeRawPointer, _ offset: Int) -> UInt64 {
    UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
}

/// What the parser's scan keeps while it walks the `&`s: the field count, where the current piece
/// starts, and the first two fields whose first byte may start the key (the key's first byte, or
/// `%`/`+`, which may decode to it), to be compared with it after the walk, so that the walk itself
/// calls nothing and keeps its state in registers.
internal struct _PieceTally {
    internal let keyFirst: UInt8
    internal var fieldCount = 0
    internal var pieceStart = 0

    /// The first and second field that may start the key, each as its start (high half) and end
    /// (low half; inputs are far shorter than 2³² bytes) plus one, or 0 for none; ``second`` is
    /// ``more`` once a third turns up. A referrer has one, its payload, as a rule.
    internal var first: UInt64 = 0
    internal var second: UInt64 = 0

    /// ``second`` when more than two fields may start the key.
    internal static let more = UInt64.max

    @inline(__always)
    internal init(keyFirst: UInt8) {
        self.keyFirst = keyFirst
    }

    /// The bounds of a field that ``first`` or ``second`` holds.
    @inline(__always)
    internal static func bounds(_ packed: UInt64) -> (start: Int, end: Int) {
        let packed = packed &- 1
        return (Int(truncatingIfNeeded: packed &>> 32), Int(truncatingIfNeeded: packed & 0xFFFF_FFFF))
    }

    /// Adds the piece that each `&` in `marks` (bit `i` for the byte at `offset + i`) ends, in
    /// order.
    @inline(__always)
    internal mutating func add(_ marks: UInt32, at offset: Int, _ base: UnsafeRawPointer) {
        var marks = marks
        while marks != 0 {
            let end = offset &+ marks.trailingZeroBitCount
            marks &= marks &- 1
            addPiece(base, to: end)
            pieceStart = end &+ 1
        }
    }

    /// Adds the piece from ``pieceStart`` to `end`, unless it is empty (`&&`, a leading or
    /// trailing `&`).
    @inline(__always)
    internal mutating func addPiece(_ base: UnsafeRawPointer, to end: Int) {
        let start = pieceStart
        guard end > start else { return }
        fieldCount &+= 1
        let byte = base.load(fromByteOffset: start, as: UInt8.self)
        guard byte == keyFirst || byte == UInt8(ascii: "%") || byte == UInt8(ascii: "+") else { return }
        let packed = (UInt64(truncatingIfNeeded: start) &<< 32 | UInt64(truncatingIfNeeded: end)) &+ 1
        if first == 0 {
            first = packed
        } else {
            second = second == 0 ? packed : Self.more
        }
    }
}

/// Bit `i` set where lane `i` of `lanes` is true.
///
/// On x86-64 it is SSE2's `pmovmskb` (through CLaneMask: portable Swift SIMD has no such
/// operation), the instruction that also tests the comparison. Elsewhere, ``_laneWords(_:)`` and
/// ``_laneBits(_:)``.
@inline(__always)
internal func _laneMask(_ lanes: SIMDMask<SIMD16<Int8>>) -> UInt32 {
    #if arch(x86_64)
    return deeplink_lane_mask(unsafeBitCast(lanes, to: SIMD16<Int8>.self))
    #else
    return _laneBits(_laneWords(lanes))
    #endif
}

/// The sixteen lanes as two words whose bytes are zero or, for a true lane, that lane's bit in its
/// half (1, 2, …, 128): nonzero exactly when a lane is true; ``_laneBits(_:)`` of them is the
/// mask.
@inline(__always)
internal func _laneWords(_ lanes: SIMDMask<SIMD16<Int8>>) -> (UInt64, UInt64) {
    let weights = SIMD16<UInt8>(1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128)
    // A true lane is all ones (the mask's storage), so `&` keeps its weight.
    let words = unsafeBitCast(unsafeBitCast(lanes, to: SIMD16<UInt8>.self) & weights, to: (UInt64, UInt64).self)
    return (UInt64(littleEndian: words.0), UInt64(littleEndian: words.1))
}

/// Bit `i` set where lane `i` of the lanes ``_laneWords(_:)`` made is true.
///
/// The bytes of each word have disjoint bits, so one multiplication sums them into its top byte
/// with no carry crossing a byte: that half's eight bits.
@inline(__always)
internal func _laneBits(_ words: (UInt64, UInt64)) -> UInt32 {
    let bytes: UInt64 = 0x0101_0101_0101_0101
    let low = UInt32(truncatingIfNeeded: (words.0 &* bytes) &>> 56)
    let high = UInt32(truncatingIfNeeded: (words.1 &* bytes) &>> 56)
    return low | high &<< 8
}

/// The `&`s among the sixteen bytes at `pointer`, as ``_laneMask(_:)``: one vector comparison
/// (portable SIMD: `pcmpeqb` on x86-64, `cmeq` on arm64).
@inline(__always)
internal func _ampersandMask(_ pointer: UnsafeRawPointer) -> UInt32 {
    let ampersands = SIMD16<UInt8>(repeating: UInt8(ascii: "&"))
    return _laneMask(pointer.loadUnaligned(as: SIMD16<UInt8>.self) .== ampersands)
}

/// The `&`s among the last bytes of the `count` at `base`, from `index` on (fewer than sixteen),
/// bit `i` for the byte at `index + i`: the input's last sixteen, shifted past those before
/// `index`, or, in an input shorter than sixteen, its bytes one by one.
@inline(__always)
internal func _ampersandTailMask(_ base: UnsafeRawPointer, from index: Int, count: Int) -> UInt32 {
    assert(index < count && count &- index < 16, "a tail of fewer than sixteen bytes")
    if count >= 16 { return _ampersandMask(base + (count &- 16)) &>> (16 &- (count &- index)) }
    var marks: UInt32 = 0
    for offset in 0..<(count &- index)
    where base.load(fromByteOffset: index &+ offset, as: UInt8.self) == UInt8(ascii: "&") {
        marks |= 1 &<< offset
    }
    return marks
}

/// The bounds of every `&`-separated piece of the `count` bytes at `base`, empty ones included,
/// in order (a cursor, not a closure: closures that capture state allocate in debug builds).
///
/// Sixteen bytes are compared at a time with one vector comparison, as the parser's scan does
/// (``_ampersandMask(_:)``: one `pcmpeqb` and one `pmovmskb` on x86-64), the last few as
/// ``_ampersandTailMask(_:from:count:)``.
internal struct _Pieces {
    internal let base: UnsafeRawPointer
    internal let count: Int

    /// Where the next piece starts: past 0 once an `&` was seen.
    internal private(set) var pieceStart = 0

    /// The next byte not yet compared.
    private var index = 0

    /// The `&`s found but not yet handed out: bit `i` for the byte at `marksOffset + i`.
    private var marks: UInt32 = 0
    private var marksOffset = 0
    private var isFinished = false

    @inline(__always)
    internal init(_ base: UnsafeRawPointer, count: Int) {
        self.base = base
        self.count = count
    }

    /// Whether an `&` occurs before the pieces handed out so far end.
    internal var sawAmpersand: Bool { pieceStart > 0 }

    /// The next piece's bounds, or `nil` after the last.
    @inline(__always)
    internal mutating func next() -> (start: Int, end: Int)? {
        while true {
            if marks != 0 {
                let end = marksOffset &+ marks.trailingZeroBitCount
                marks &= marks &- 1
                let start = pieceStart
                pieceStart = end &+ 1
                return (start, end)
            }
            if index < count {
                marksOffset = index
                if index &+ 16 <= count {
                    marks = _ampersandMask(base + index)
                    index &+= 16
                } else {
                    marks = _ampersandTailMask(base, from: index, count: count)
                    index = count
                }
                continue
            }
            guard !isFinished else { return nil }
            isFinished = true
            return (pieceStart, count)
        }
    }
}

/// The index of the first `=` in `start..<end`, or `end`.
@inline(__always)
internal func _firstEqualSign(_ base: UnsafeRawPointer, from start: Int, to end: Int) -> Int {
    var index = start
    while index &+ 8 <= end {
        let matches = _zeroBytes(_word(base, index) ^ _equalSigns)
        if matches != 0 { return index &+ matches.trailingZeroBitCount &>> 3 }
        index &+= 8
    }
    while index < end {
        if base.load(fromByteOffset: index, as: UInt8.self) == UInt8(ascii: "=") { return index }
        index &+= 1
    }
    return end
}
