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
        guard _hasTagField(bytes, pathCount: pathCount) else { return .missing }
        let count = bytes.count
        let tagDigits = 2 * tagByteCount
        // From the end: `&dl_sig=` and the tag, `&dl_nonce=` and the nonce, `&dl_exp=` and the
        // expiry, then `?dl_kid=` or `&dl_kid=` and the key id, all inside the query.
        let tagStart = count - tagDigits
        guard tagStart - 8 > pathCount, _matches(bytes, at: tagStart - 8, "&dl_sig="),
            _isLowercaseHex(bytes, tagStart..<count)
        else { return .malformed }
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
        var nonce: UInt64 = 0
        for index in nonceStart..<tagStart - 8 { nonce = nonce << 4 | UInt64(Hex.digitValue(bytes[index])) }
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

    internal static func _isLowercaseHex(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Bool {
        guard range.lowerBound >= 0 else { return false }
        for index in range {
            let byte = bytes[index]
            let isDigit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
            let isLetter = byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f")
            guard isDigit || isLetter else { return false }
        }
        return true
    }
}
