/// The parser's single pass over a referrer: counts the fields, notes whether a raw `=` or `&`
/// occurs (which rules out double encoding), finds the first field whose decoded name is the
/// payload key and counts the fields so named, reading eight bytes at a time where it can.
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
    @inlinable
    internal func payload(in input: UnsafeRawBufferPointer) -> ReferrerField? {
        guard payloadStart >= 0 else { return nil }
        if payloadSeparator < 0 {
            return ReferrerField(
                rawName: UnsafeRawBufferPointer(rebasing: input[payloadStart..<payloadEnd]),
                rawValue: UnsafeRawBufferPointer(rebasing: input[payloadEnd..<payloadEnd]),
                hasSeparator: false
            )
        }
        return ReferrerField(
            rawName: UnsafeRawBufferPointer(rebasing: input[payloadStart..<payloadSeparator]),
            rawValue: UnsafeRawBufferPointer(rebasing: input[(payloadSeparator + 1)..<payloadEnd]),
            hasSeparator: true
        )
    }

    /// Scans `input` for the fields, the first one whose decoded name is `key` and how many are.
    ///
    /// - Complexity: O(n) in `input.count`, one pass; O(k) more per name of a plausible length.
    @usableFromInline
    internal static func scan(_ input: UnsafeRawBufferPointer, key: UnsafeBufferPointer<UInt8>) -> _ReferrerScan {
        var result = _ReferrerScan()
        guard let base = input.baseAddress else { return result }
        let count = input.count
        var position = 0
        // Every name is compared, also past the payload: a second field with the key makes the
        // referrer ambiguous (`ReferrerError.duplicatePayloadKey`).
        while position < count {
            let start = position
            var end = _firstNameTerminator(base, from: start, count: count)
            var separator = -1
            if end < count {
                result.sawRawSeparator = true
                if base.load(fromByteOffset: end, as: UInt8.self) == UInt8(ascii: "=") {
                    separator = end
                    end = _firstAmpersand(base, from: end + 1, count: count)
                }
            }
            position = end + 1
            guard end > start else { continue }  // an empty piece (`&&`, leading or trailing `&`)
            result.fieldCount += 1
            let nameEnd = separator < 0 ? end : separator
            if _decodedEquals(base + start, count: nameEnd - start, key: key) {
                result.payloadCount += 1
                if result.payloadStart < 0 {
                    result.payloadStart = start
                    result.payloadSeparator = separator
                    result.payloadEnd = end
                }
            }
        }
        return result
    }
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
    return _decodedEqualsAfterFirstByte(raw, count: count, key: keyBase, keyCount: keyCount)
}

/// The rest of ``_decodedEquals(_:count:key:)`` for a name that survived the first-byte test: kept
/// out of line so that its loops' set-up does not weigh on every scan.
@inline(never)
private func _decodedEqualsAfterFirstByte(
    _ raw: UnsafeRawPointer,
    count: Int,
    key keyBase: UnsafePointer<UInt8>,
    keyCount: Int
) -> Bool {
    // A name spelled exactly like the key, with no `%` or `+`, decodes to itself: compare words.
    if count == keyCount, _plainEquals(raw, UnsafeRawPointer(keyBase), count: count) { return true }
    var index = 0
    var matched = 0
    while index < count {
        guard matched < keyCount else { return false }
        var byte = raw.load(fromByteOffset: index, as: UInt8.self)
        index &+= 1
        if byte == UInt8(ascii: "+") {
            byte = UInt8(ascii: " ")
        } else if byte == UInt8(ascii: "%"), index &+ 1 < count {
            let high = FormDecoding.hexValue(raw.load(fromByteOffset: index, as: UInt8.self))
            let low = FormDecoding.hexValue(raw.load(fromByteOffset: index &+ 1, as: UInt8.self))
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

/// Whether the `count` bytes at `raw` equal those at `key` and include no `%` or `+`.
@inline(__always)
private func _plainEquals(_ raw: UnsafeRawPointer, _ key: UnsafeRawPointer, count: Int) -> Bool {
    let percents: UInt64 = 0x2525_2525_2525_2525
    let pluses: UInt64 = 0x2B2B_2B2B_2B2B_2B2B
    var index = 0
    var differences: UInt64 = 0
    var escapes: UInt64 = 0
    while index &+ 8 <= count {
        let word = _word(raw, index)
        differences |= word ^ _word(key, index)
        escapes |= _zeroBytes(word ^ percents) | _zeroBytes(word ^ pluses)
        index &+= 8
    }
    while index < count {
        let byte = raw.load(fromByteOffset: index, as: UInt8.self)
        differences |= UInt64(byte ^ key.load(fromByteOffset: index, as: UInt8.self))
        if byte == UInt8(ascii: "%") || byte == UInt8(ascii: "+") { escapes = 1 }
        index &+= 1
    }
    return differences | escapes == 0
}

private let _ampersands: UInt64 = 0x2626_2626_2626_2626
private let _equalSigns: UInt64 = 0x3D3D_3D3D_3D3D_3D3D

/// Nonzero when `word` has a zero byte, and then its lowest set bit is the high bit of the first
/// (lowest-addressed) zero byte. Bits above it may be false positives (a borrow runs upwards),
/// which finding the first match never reads.
@inline(__always)
internal func _zeroBytes(_ word: UInt64) -> UInt64 {
    (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
}

@inline(__always)
internal func _word(_ base: UnsafeRawPointer, _ offset: Int) -> UInt64 {
    UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
}

/// The index of the first `=` or `&` at or after `start`, or `count`.
@inline(__always)
private func _firstNameTerminator(_ base: UnsafeRawPointer, from start: Int, count: Int) -> Int {
    var index = start
    while index &+ 8 <= count {
        let word = _word(base, index)
        let matches = _zeroBytes(word ^ _ampersands) | _zeroBytes(word ^ _equalSigns)
        if matches != 0 { return index &+ matches.trailingZeroBitCount &>> 3 }
        index &+= 8
    }
    while index < count {
        let byte = base.load(fromByteOffset: index, as: UInt8.self)
        if byte == UInt8(ascii: "=") || byte == UInt8(ascii: "&") { return index }
        index &+= 1
    }
    return count
}

/// The index of the first `&` at or after `start`, or `count`.
@inline(__always)
private func _firstAmpersand(_ base: UnsafeRawPointer, from start: Int, count: Int) -> Int {
    var index = start
    while index &+ 8 <= count {
        let matches = _zeroBytes(_word(base, index) ^ _ampersands)
        if matches != 0 { return index &+ matches.trailingZeroBitCount &>> 3 }
        index &+= 8
    }
    while index < count {
        if base.load(fromByteOffset: index, as: UInt8.self) == UInt8(ascii: "&") { return index }
        index &+= 1
    }
    return count
}
