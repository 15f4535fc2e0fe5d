// The validator's content rule: one pass over the whole payload for UTF-8, control and invisible
// characters, backslashes and escapes. It reads the payload in place and allocates nothing.

extension LinkValidator {
    /// Whether all eight bytes of `word` are printable ASCII (0x20…0x7E) other than `%` and `\`
    /// (SWAR: a byte's high bit in each mask marks a byte that is not).
    @inline(__always)
    internal static func _arePlain(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        /// High bit set in every byte of `x` that is zero (exact: no false positives once the
        /// bytes with their own high bit are excluded, which `nonASCII` does).
        func zeroBytes(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & highs }
        let nonASCII = word & highs
        let belowSpace = (word &- ones &* 0x20) & ~word & highs
        let delete = zeroBytes(word ^ (ones &* 0x7F))
        let percent = zeroBytes(word ^ (ones &* 0x25))
        let backslash = zeroBytes(word ^ (ones &* 0x5C))
        return nonASCII | belowSpace | delete | percent | backslash == 0
    }

    /// One pass over the whole payload: strict UTF-8 (Unicode Table 3-7), then control characters,
    /// invisible characters, backslashes (each raw or percent-encoded) and malformed escapes.
    /// Returns the first reason by precedence.
    internal static func _contentRejection(_ bytes: UnsafeRawBufferPointer) -> LinkRejection? {
        let count = bytes.count
        var sawControl = false
        var sawInvisible = false
        var sawBackslash = false
        var sawMalformedEscape = false
        // A UTF-8 sequence spelled in escapes (`%E2%80%AE`, `%C2%85`): the code point so far, how
        // many continuation escapes it still needs (0: none is open) and the smallest code point
        // its length may encode (an overlong form is no character). Any other unit closes it.
        var escapedScalar: UInt32 = 0
        var escapedPending = 0
        var escapedMinimum: UInt32 = 0
        var index = 0
        while index < count {
            // Eight plain bytes at a time (printable ASCII other than `%` and `\`): most links are
            // nothing else, and none of these bytes changes any of the state below.
            if index + 8 <= count, Self._arePlain(bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
                escapedPending = 0
                index += 8
                continue
            }
            // The last few bytes, as the payload's last word: when it is plain, so are they (the
            // bytes before them were judged already).
            if index + 8 > count, count >= 8,
                Self._arePlain(bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
            {
                escapedPending = 0
                index = count
                continue
            }
            let byte = bytes[index]
            if byte < 0x80 {
                guard byte == UInt8(ascii: "%") else {
                    if byte < 0x20 || byte == 0x7F { sawControl = true }
                    if byte == UInt8(ascii: "\\") { sawBackslash = true }
                    escapedPending = 0
                    index += 1
                    continue
                }
                guard index + 2 < count, let decoded = Hex.byte(bytes[index + 1], bytes[index + 2]) else {
                    sawMalformedEscape = true
                    escapedPending = 0
                    index += 1
                    continue
                }
                index += 3
                if decoded < 0x80 {
                    if decoded < 0x20 || decoded == 0x7F { sawControl = true }
                    if decoded == UInt8(ascii: "\\") { sawBackslash = true }
                    escapedPending = 0
                } else if escapedPending > 0, decoded & 0xC0 == 0x80 {
                    escapedScalar = escapedScalar << 6 | UInt32(decoded & 0x3F)
                    escapedPending -= 1
                    let isScalar =
                        escapedScalar >= escapedMinimum && escapedScalar <= 0x10_FFFF
                        && !(escapedScalar >= 0xD800 && escapedScalar <= 0xDFFF)
                    if escapedPending == 0, isScalar {
                        if _isC1Control(escapedScalar) { sawControl = true }
                        if _isInvisible(escapedScalar) { sawInvisible = true }
                    }
                } else {
                    switch decoded {
                    case 0xC2...0xDF:
                        (escapedScalar, escapedPending, escapedMinimum) = (UInt32(decoded & 0x1F), 1, 0x80)
                    case 0xE0...0xEF:
                        (escapedScalar, escapedPending, escapedMinimum) = (UInt32(decoded & 0x0F), 2, 0x800)
                    case 0xF0...0xF4:
                        (escapedScalar, escapedPending, escapedMinimum) = (UInt32(decoded & 0x07), 3, 0x1_0000)
                    default: escapedPending = 0  // not a lead byte: no character to judge
                    }
                }
                continue
            }
            escapedPending = 0
            let length: Int
            let secondLow: UInt8
            let secondHigh: UInt8
            switch byte {
            case 0xC2...0xDF: (length, secondLow, secondHigh) = (2, 0x80, 0xBF)
            case 0xE0: (length, secondLow, secondHigh) = (3, 0xA0, 0xBF)
            case 0xE1...0xEC, 0xEE...0xEF: (length, secondLow, secondHigh) = (3, 0x80, 0xBF)
            case 0xED: (length, secondLow, secondHigh) = (3, 0x80, 0x9F)  // no surrogates
            case 0xF0: (length, secondLow, secondHigh) = (4, 0x90, 0xBF)
            case 0xF1...0xF3: (length, secondLow, secondHigh) = (4, 0x80, 0xBF)
            case 0xF4: (length, secondLow, secondHigh) = (4, 0x80, 0x8F)  // nothing above U+10FFFF
            default: return .invalidUTF8  // continuation byte, C0/C1 overlong lead, F5…FF
            }
            guard index + length <= count else { return .invalidUTF8 }
            let second = bytes[index + 1]
            guard second >= secondLow, second <= secondHigh else { return .invalidUTF8 }
            let leadBits: UInt8 = length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07
            var scalar = UInt32(byte & leadBits) << 6 | UInt32(second & 0x3F)
            var continuation = index + 2
            while continuation < index + length {
                let next = bytes[continuation]
                guard next & 0xC0 == 0x80 else { return .invalidUTF8 }
                scalar = scalar << 6 | UInt32(next & 0x3F)
                continuation += 1
            }
            if _isC1Control(scalar) { sawControl = true }
            if _isInvisible(scalar) { sawInvisible = true }
            index += length
        }
        if sawControl { return .controlCharacter }
        if sawInvisible { return .invisibleCharacter }
        if sawBackslash { return .backslash }
        if sawMalformedEscape { return .malformedPercentEscape }
        return nil
    }

    /// U+0080…U+009F.
    @inline(__always)
    internal static func _isC1Control(_ scalar: UInt32) -> Bool { scalar >= 0x80 && scalar <= 0x9F }

    /// The characters of ``LinkRejection/invisibleCharacter``: Unicode's Default_Ignorable_Code_Point
    /// (every bidirectional control is one) and the interlinear annotation controls U+FFF9…U+FFFB.
    /// (A test compares this table with the standard library's property over every scalar.)
    @inline(__always)
    internal static func _isInvisible(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x00AD, 0x034F, 0x061C, 0x115F...0x1160, 0x17B4...0x17B5, 0x180B...0x180F: true
        case 0x200B...0x200F, 0x202A...0x202E, 0x2060...0x206F, 0x3164: true
        case 0xFE00...0xFE0F, 0xFEFF, 0xFFA0, 0xFFF0...0xFFFB: true
        case 0x1BCA0...0x1BCA3, 0x1D173...0x1D17A, 0xE0000...0xE0FFF: true
        default: false
        }
    }
}
