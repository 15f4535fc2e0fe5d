/// The parser's single pass over a referrer: counts the fields, notes whether a raw `=` or `&`
/// occurs (which rules out double encoding), finds the first field whose decoded name is the
/// payload key and counts the fields so named, reading thirty-two bytes a turn where it can.
///
/// It finds exactly what ``ReferrerFields`` iteration, ``ReferrerFields/count`` and
/// ``ReferrerFields/first(named:)-(String)`` would find, in one pass instead of three.
@usableFromInline
internal struct _ReferrerScan {
    /// The number of non-empty `&`-separated pieces.
    @usableFromInline
    internal var fieldCount: Int = 0

    /// Where the payload field starts, or -1 when no field is named by the key.
    @usableFromInline
    internal var payloadStart: Int = -1

    /// The payload field's `=`, or -1 when it has none.
    @usableFromInline
    internal var payloadSeparator: Int = -1

    /// Where the payload field ends (its `&` or the end of the input).
    @usableFromInline
    internal var payloadEnd: Int = -1

    /// How many fields are named by the key (more than one is refused).
    @usableFromInline
    internal var payloadCount: Int = 0

    /// Whether a raw `=` or `&` occurs anywhere in the input.
    @usableFromInline
    internal var sawRawSeparator: Bool = false

    @usableFromInline
    internal init() {}

    /// The payload field as a view into `input`, the buffer this scan was made from.
    ///
    /// The bounds come from the scan of `input` (`0 <= payloadStart <= payloadSeparator <
    /// payloadEnd <= input.count`), so the views are made from its base address without the
    /// slices' range checks, which the parser's inlined callers would otherwise pay per read.
    @inlinable
    internal func payload(in input: UnsafeRawBufferPointer) -> ReferrerField? {
        guard payloadStart >= 0, let base = input.baseAddress else { return nil }
        assert(payloadStart <= payloadEnd && payloadEnd <= input.count, "a scan of other bytes")
        let nameEnd = payloadSeparator < 0 ? payloadEnd : payloadSeparator
        let valueStart = payloadSeparator < 0 ? payloadEnd : payloadSeparator &+ 1
        return ReferrerField(
            rawName: UnsafeRawBufferPointer(start: base + payloadStart, count: nameEnd &- payloadStart),
            rawValue: UnsafeRawBufferPointer(start: base + valueStart, count: payloadEnd &- valueStart),
            hasSeparator: payloadSeparator >= 0,
            bytesAfterValue: payloadSeparator < 0 ? 0 : input.count &- payloadEnd
        )
    }

    /// Scans `input` for the fields, the first one whose decoded name is `key` and how many are.
    /// `keyIsPlain` says that `key` holds no `%`, `+` or `=`: then a name spelled exactly like it
    /// is it.
    ///
    /// Only `&` bounds a field, so the pass looks for `&` alone, thirty-two bytes a turn, and
    /// tallies each piece as its `&` turns up (``_PieceTally``). Only the names of fields whose
    /// first byte could start the key are compared with it, after the pass: in a referrer, the
    /// payload field alone.
    ///
    /// - Complexity: O(n) in `input.count`, one pass; O(k) more per name of a plausible start.
    @inline(__always)
    internal static func scan(
        _ input: UnsafeRawBufferPointer,
        key: UnsafeBufferPointer<UInt8>,
        keyIsPlain: Bool
    ) -> _ReferrerScan {
        var result = _ReferrerScan()
        guard let base = input.baseAddress else { return result }
        let count = input.count
        // An empty name starts with the `=` that ends it, so `=` is the first byte of the empty key.
        var tally = _PieceTally(keyFirst: key.isEmpty ? UInt8(ascii: "=") : key[0])
        var index = 0
        // Two blocks a turn, their masks joined: half the loop's own tests and branches.
        while index &+ 32 <= count {
            let marks = _ampersandMask(base + index) | _ampersandMask(base + (index &+ 16)) &<< 16
            if marks != 0 { tally.add(marks, at: index, base) }
            index &+= 32
        }
        if index &+ 16 <= count {
            let marks = _ampersandMask(base + index)
            if marks != 0 { tally.add(marks, at: index, base) }
            index &+= 16
        }
        if index < count { tally.add(_ampersandTailMask(base, from: index, count: count), at: index, base) }
        tally.addPiece(base, to: count)
        // A referrer with an `&` has a raw separator; one without is a single piece that may still
        // hold an `=`.
        result.sawRawSeparator = tally.pieceStart > 0 || _firstEqualSign(base, from: 0, to: count) < count
        result.fieldCount = tally.fieldCount
        guard tally.second != _PieceTally.more else {
            result._noteAllCandidates(base, count: count, key: key, keyFirst: tally.keyFirst)
            return result
        }
        if tally.first != 0 {
            let (start, end) = _PieceTally.bounds(tally.first)
            result._note(base, from: start, to: end, key: key, keyIsPlain: keyIsPlain)
        }
        if tally.second != 0 {
            let (start, end) = _PieceTally.bounds(tally.second)
            result._note(base, from: start, to: end, key: key, keyIsPlain: keyIsPlain)
        }
        return result
    }

    /// Notes the field `start..<end`, whose first byte may start the key, when its name is the
    /// key: at once when it is spelled exactly like a plain key (the usual payload field), else by
    /// decoding it.
    @inline(__always)
    internal mutating func _note(
        _ base: UnsafeRawPointer,
        from start: Int,
        to end: Int,
        key: UnsafeBufferPointer<UInt8>,
        keyIsPlain: Bool
    ) {
        let nameEnd = start &+ key.count
        if keyIsPlain, nameEnd <= end, let keyBase = key.baseAddress,
            nameEnd == end || base.load(fromByteOffset: nameEnd, as: UInt8.self) == UInt8(ascii: "="),
            _bytesEqual(base + start, UnsafeRawPointer(keyBase), count: key.count)
        {
            _notePayload(from: start, separator: nameEnd < end ? nameEnd : -1, to: end)
            return
        }
        _noteCandidate(base, from: start, to: end, key: key)
    }

    /// The names of every field whose first byte may start the key, compared with it in order: the
    /// rare referrer with more such fields than ``_PieceTally`` keeps.
    @inline(never)
    internal mutating func _noteAllCandidates(
        _ base: UnsafeRawPointer,
        count: Int,
        key: UnsafeBufferPointer<UInt8>,
        keyFirst: UInt8
    ) {
        var pieces = _Pieces(base, count: count)
        while let (start, end) = pieces.next() {
            guard end > start else { continue }
            let first = base.load(fromByteOffset: start, as: UInt8.self)
            guard first == keyFirst || first == UInt8(ascii: "%") || first == UInt8(ascii: "+") else { continue }
            _noteCandidate(base, from: start, to: end, key: key)
        }
    }

    /// Counts a field named by the key, and keeps it when it is the first.
    @inline(__always)
    internal mutating func _notePayload(from start: Int, separator: Int, to end: Int) {
        payloadCount &+= 1
        guard payloadStart < 0 else { return }
        payloadStart = start
        payloadSeparator = separator
        payloadEnd = end
    }

    /// Compares the name of the field `start..<end`, whose first byte may start the key, with the
    /// key, and notes the field when it is named by it: kept out of line, as most fields never get here.
    @inline(never)
    internal mutating func _noteCandidate(
        _ base: UnsafeRawPointer,
        from start: Int,
        to end: Int,
        key: UnsafeBufferPointer<UInt8>
    ) {
        // The usual payload field: the key spelled plainly (no `%`, `+` or `=`), then `=` or the end.
        let nameEnd = start &+ key.count
        if nameEnd <= end, let keyBase = key.baseAddress,
            nameEnd == end || base.load(fromByteOffset: nameEnd, as: UInt8.self) == UInt8(ascii: "="),
            _plainEquals(base + start, UnsafeRawPointer(keyBase), count: key.count)
        {
            _notePayload(from: start, separator: nameEnd < end ? nameEnd : -1, to: end)
            return
        }
        _noteSpelledCandidate(base, from: start, to: end, key: key)
    }

    /// The rest of ``_noteCandidate(_:from:to:key:)``: a name that may be the key spelled with
    /// escapes, or not the key at all.
    @inline(never)
    internal mutating func _noteSpelledCandidate(
        _ base: UnsafeRawPointer,
        from start: Int,
        to end: Int,
        key: UnsafeBufferPointer<UInt8>
    ) {
        let separator = _firstEqualSign(base, from: start, to: end)
        guard _decodedEquals(base + start, count: separator &- start, key: key) else { return }
        _notePayload(from: start, separator: separator < end ? separator : -1, to: end)
    }
}

/// ``_ReferrerScan/scan(_:key:keyIsPlain:)``, out of line: the entry the inlinable parser calls (a
/// free function, so that no unused argument makes the optimizer put a thunk in front of it).
@usableFromInline
internal func _scanReferrer(
    _ input: UnsafeRawBufferPointer,
    key: UnsafeBufferPointer<UInt8>,
    keyIsPlain: Bool
) -> _ReferrerScan {
    _ReferrerScan.scan(input, key: key, keyIsPlain: keyIsPlain)
}

/// Whether the `count` raw bytes at `raw` decode (form decoding) to exactly `key`.
@inline(__always)
internal func _decodedEquals(_ raw: UnsafeRawPointer, count: Int, key: UnsafeBufferPointer<UInt8>) -> Bool {
    // A decoded byte takes one to three raw bytes, which bounds the raw length quickly.
    let keyCount = key.count
    guard count >= keyCount, count <= keyCount &* 3, let keyBase = key.baseAddress else {
        return count == 0 && keyCount == 0
    }
    // Most names differ from the key in their first byte, which decodes to itself unless it
    // starts an escape.
    if count > 0 {
        let first = raw.load(as: UInt8.self)
        if first != keyBase[0], first != UInt8(ascii: "%"), first != UInt8(ascii: "+") { return false }
    }
    // A name spelled exactly like the key, with no `%` or `+`, decodes to itself: compare words.
    if count == keyCount, _plainEquals(raw, UnsafeRawPointer(keyBase), count: count) { return true }
    return _decodedEqualsAfterFirstByte(raw, count: count, key: keyBase, keyCount: keyCount)
}

/// The rest of ``_decodedEquals(_:count:key:)`` for a name that survived the first-byte test and is
/// not the key spelled plainly: kept out of line so that its loop's set-up does not weigh on every
/// scan.
@inline(never)
private func _decodedEqualsAfterFirstByte(
    _ raw: UnsafeRawPointer,
    count: Int,
    key keyBase: UnsafePointer<UInt8>,
    keyCount: Int
) -> Bool {
    var index = 0
    var matched = 0
    while index < count {
        guard matched < keyCount else { return false }
        var byte = raw.load(fromByteOffset: index, as: UInt8.self)
        index &+= 1
        if byte == UInt8(ascii: "+") {
            byte = UInt8(ascii: " ")
        } else if byte == UInt8(ascii: "%"), index &+ 1 < count {
            let high = Hex.digitValue(raw.load(fromByteOffset: index, as: UInt8.self))
            let low = Hex.digitValue(raw.load(fromByteOffset: index &+ 1, as: UInt8.self))
            if high | low < 16 {
                byte = high &<< 4 | low
                index &+= 2
            }
        }
        guard byte == keyBase[matched] else { return false }
        matched &+= 1
    }
    return matched == keyCount
}

/// Whether the `count` bytes at `raw` equal those at `key`, compared a word at a time (the last
/// word overlapping the one before when `count` is no multiple of 8).
@inline(__always)
internal func _bytesEqual(_ raw: UnsafeRawPointer, _ key: UnsafeRawPointer, count: Int) -> Bool {
    guard count >= 8 else {
        for index in 0..<count
        where raw.load(fromByteOffset: index, as: UInt8.self) != key.load(fromByteOffset: index, as: UInt8.self) {
            return false
        }
        return true
    }
    var index = 0
    while index &+ 8 < count {
        guard _word(raw, index) == _word(key, index) else { return false }
        index &+= 8
    }
    return _word(raw, count &- 8) == _word(key, count &- 8)
}

/// Whether the `count` bytes at `raw` equal those at `key` and include no `%`, `+` or `=`: then
/// they are a whole name (`=` ends one) that decodes to itself.
@inline(__always)
internal func _plainEquals(_ raw: UnsafeRawPointer, _ key: UnsafeRawPointer, count: Int) -> Bool {
    let percents: UInt64 = 0x2525_2525_2525_2525
    let pluses: UInt64 = 0x2B2B_2B2B_2B2B_2B2B
    var differences: UInt64 = 0
    var escapes: UInt64 = 0
    if count >= 8 {
        // Whole words, the last one overlapping the one before when `count` is no multiple of 8.
        var index = 0
        repeat {
            let offset = index < count &- 8 ? index : count &- 8
            let word = _word(raw, offset)
            differences |= word ^ _word(key, offset)
            escapes |= _zeroBytes(word ^ percents) | _zeroBytes(word ^ pluses) | _zeroBytes(word ^ _equalSigns)
            index &+= 8
        } while index < count
        return differences | escapes == 0
    }
    for index in 0..<count {
        let byte = raw.load(fromByteOffset: index, as: UInt8.self)
        differences |= UInt64(byte ^ key.load(fromByteOffset: index, as: UInt8.self))
        if byte == UInt8(ascii: "%") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "=") { escapes = 1 }
    }
    return differences | escapes == 0
}
