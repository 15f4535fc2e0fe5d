// Reading a signed link's block (the format is documented on `LinkSignature`). Every function here
// reads the link's bytes through a buffer the caller lends and allocates nothing.

/// Where a signed link's fields lie in its bytes.
internal struct _SignatureBlock {
    /// The tag covers `bytes[0..<messageEnd]` (everything before `&dl_sig=`).
    var messageEnd: Int
    var keyID: Range<Int>
    var expiresAtSeconds: UInt64
    var nonce: UInt64
    /// The first of the tag's hex digits (they run to the end of the link).
    var tagStart: Int
}

/// What a link's query says about its signature.
internal enum _SignatureParse {
    /// No `dl_sig` field at all.
    case missing
    /// A `dl_sig` field, but not the block ``LinkSignature`` describes.
    case malformed
    case block(_SignatureBlock)
}

extension LinkSignature {
    /// Finds the signature block at the end of `bytes` (a canonical link whose path is
    /// `bytes[0..<pathCount]`).
    ///
    /// - Complexity: O(n) in the link's length; no allocation.
    internal static func _parse(_ bytes: UnsafeRawBufferPointer, pathCount: Int) -> _SignatureParse {
        let count = bytes.count
        let tagDigits = 2 * tagByteCount
        // From the end: `&dl_sig=` and the tag, `&dl_nonce=` and the nonce, `&dl_exp=` and the
        // expiry, then `?dl_kid=` or `&dl_kid=` and the key id, all inside the query. A link whose
        // tag is in place has a `dl_sig` field (that one); only one whose tag is not is searched
        // for the field, which tells a missing signature from a malformed one.
        let tagStart = count - tagDigits
        guard tagStart - 8 > pathCount, _matches(bytes, at: tagStart - 8, "&dl_sig="),
            _isLowercaseHex(bytes, tagStart..<count)
        else { return _hasTagField(bytes, pathCount: pathCount) ? .malformed : .missing }
        let nonceStart = tagStart - 8 - nonceHexDigits
        guard nonceStart - 10 > pathCount, _matches(bytes, at: nonceStart - 10, "&dl_nonce="),
            _isLowercaseHex(bytes, nonceStart..<tagStart - 8)
        else { return .malformed }
        let expiryEnd = nonceStart - 10
        var expiryStart = expiryEnd
        while expiryStart > pathCount, bytes[expiryStart - 1] >= UInt8(ascii: "0"),
            bytes[expiryStart - 1] <= UInt8(ascii: "9")
        {
            expiryStart -= 1
        }
        let expiryDigits = expiryEnd - expiryStart
        guard expiryDigits >= 1, expiryDigits <= maxExpiryDigits, expiryStart - 8 > pathCount,
            _matches(bytes, at: expiryStart - 8, "&dl_exp=")
        else { return .malformed }
        let keyEnd = expiryStart - 8
        var keyStart = keyEnd
        while keyStart > pathCount, _isKeyIDByte(bytes[keyStart - 1]) { keyStart -= 1 }
        let keyCount = keyEnd - keyStart
        guard keyCount >= 1, keyCount <= maxKeyIDBytes, keyStart - 8 >= pathCount,
            _matches(bytes, at: keyStart - 7, "dl_kid="),
            bytes[keyStart - 8] == UInt8(ascii: "?") || bytes[keyStart - 8] == UInt8(ascii: "&")
        else { return .malformed }
        var expiry: UInt64 = 0
        for index in expiryStart..<expiryEnd { expiry = expiry * 10 + UInt64(bytes[index] - UInt8(ascii: "0")) }
        // Sixteen lowercase hex digits (checked above), the first the most significant.
        let nonceHigh = UInt64(_hexWordValue(bytes, at: nonceStart))
        let nonce = nonceHigh << 32 | UInt64(_hexWordValue(bytes, at: nonceStart + 8))
        return .block(
            _SignatureBlock(
                messageEnd: tagStart - 8,
                keyID: keyStart..<keyEnd,
                expiresAtSeconds: expiry,
                nonce: nonce,
                tagStart: tagStart
            )
        )
    }

    /// Whether the query (after `bytes[pathCount]`, the `?`) has a field named `dl_sig`.
    internal static func _hasTagField(_ bytes: UnsafeRawBufferPointer, pathCount: Int) -> Bool {
        var fieldStart = pathCount + 1
        while fieldStart < bytes.count {
            var fieldEnd = fieldStart
            while fieldEnd < bytes.count, bytes[fieldEnd] != UInt8(ascii: "&") { fieldEnd += 1 }
            let length = fieldEnd - fieldStart
            if length >= 6, _matches(bytes, at: fieldStart, "dl_sig"),
                length == 6 || bytes[fieldStart + 6] == UInt8(ascii: "=")
            {
                return true
            }
            fieldStart = fieldEnd + 1
        }
        return false
    }

    /// Whether `bytes` holds `literal` at `offset` (false when it would run past the end).
    @inline(__always)
    internal static func _matches(_ bytes: UnsafeRawBufferPointer, at offset: Int, _ literal: StaticString) -> Bool {
        guard offset >= 0, offset + literal.utf8CodeUnitCount <= bytes.count else { return false }
        return literal.withUTF8Buffer { literal in
            for index in 0..<literal.count where bytes[offset + index] != literal[index] { return false }
            return true
        }
    }

    /// Whether every byte of `bytes[range]` is a lowercase hex digit: eight at a time
    /// (``_isLowercaseHexWord(_:)``), the last eight overlapping those before when the count is no
    /// multiple of 8, byte by byte under eight.
    internal static func _isLowercaseHex(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Bool {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count, let base = bytes.baseAddress else {
            return range.isEmpty && range.lowerBound >= 0
        }
        guard range.count >= 8 else {
            // Each byte as the lowest of a word whose other bytes are `0`s.
            return range.allSatisfy { _isLowercaseHexWord(0x3030_3030_3030_3000 | UInt64(bytes[$0])) }
        }
        var offset = range.lowerBound
        while offset < range.upperBound {
            let start = Swift.min(offset, range.upperBound - 8)
            guard _isLowercaseHexWord(_word(base, start)) else { return false }
            offset += 8
        }
        return true
    }

    /// Whether each of the eight bytes of `word` is a lowercase hex digit (`0`–`9`, `a`–`f`).
    ///
    /// With every byte below 0x80, adding `0x80 - c` to a byte sets its high bit exactly when the
    /// byte is at least `c`, and carries into no other byte: a byte is a digit when it is at least
    /// `0` and not at least `:`, a letter when at least `a` and not at least `g`.
    @inline(__always)
    internal static func _isLowercaseHexWord(_ word: UInt64) -> Bool {
        let highs: UInt64 = 0x8080_8080_8080_8080
        let ones: UInt64 = 0x0101_0101_0101_0101
        guard word & highs == 0 else { return false }
        let atLeastZero = word &+ ones &* (0x80 - 0x30)
        let atLeastColon = word &+ ones &* (0x80 - 0x3A)
        let atLeastA = word &+ ones &* (0x80 - 0x61)
        let atLeastG = word &+ ones &* (0x80 - 0x67)
        return (atLeastZero & ~atLeastColon | atLeastA & ~atLeastG) & highs == highs
    }

    /// The eight lowercase hex digits at `bytes[offset...]` (checked by the caller) as the four
    /// bytes they spell, the first digit the most significant: `"0123abcd"` is `0x0123_ABCD`.
    ///
    /// A digit's value is its low four bits, plus 9 for a letter (bit 6 set); each byte pair is
    /// joined in its 16-bit lane, and the four lanes' bytes are packed together.
    @inline(__always)
    internal static func _hexWordValue(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        precondition(offset >= 0 && offset + 8 <= bytes.count, "eight hex digits inside the link")
        let word = _word(bytes.baseAddress!, offset)
        let values = word & 0x0F0F_0F0F_0F0F_0F0F &+ (word &>> 6 & 0x0101_0101_0101_0101) &* 9
        let pairs = (values & 0x00FF_00FF_00FF_00FF) &<< 4 | values &>> 8 & 0x00FF_00FF_00FF_00FF
        let lanes = (pairs | pairs &>> 8) & 0x0000_FFFF_0000_FFFF
        // In memory order: the first digit pair is the lowest byte.
        let spelled = UInt32(truncatingIfNeeded: lanes | lanes &>> 16)
        return spelled.byteSwapped
    }
}
