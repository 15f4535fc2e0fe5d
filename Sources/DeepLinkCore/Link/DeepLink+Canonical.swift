extension DeepLink {
    /// Copies the reduced link out of `payload`; the validator has checked every invariant,
    /// including that it fits.
    internal init(_reduced reduced: _ReducedLink, of payload: UnsafeRawBufferPointer) {
        self._storage = InlineArray(repeating: 0)
        self._count = 0
        self._pathCount = 0
        _assign(reduced, of: payload)
    }

    /// Overwrites this link, in place, with the canonical form of the reduced link of `payload`:
    /// escaped unreserved characters decoded, the hex digits of the other escapes uppercased
    /// (RFC 3986 6.2.2.1–2). Bytes past the new count keep what was there (nothing reads them:
    /// equality and hashing use the first `utf8Count`).
    internal mutating func _assign(_ reduced: _ReducedLink, of payload: UnsafeRawBufferPointer) {
        var pathCount = -1
        var written = 0
        var span = _storage.mutableSpan
        span.withUnsafeMutableBytes { destination in
            if reduced.needsLeadingSlash {
                destination[0] = UInt8(ascii: "/")
                written = 1
            }
            // Up to the first escape the canonical form is the payload's bytes as they are.
            let plainEnd = LinkValidator._firstIndex(
                of: UInt8(ascii: "%"),
                in: payload,
                from: reduced.start,
                to: reduced.end
            )
            if plainEnd > reduced.start, let source = payload.baseAddress, let target = destination.baseAddress {
                let plainCount = plainEnd &- reduced.start
                (target + written).copyMemory(from: source + reduced.start, byteCount: plainCount)
                let query = LinkValidator._firstIndex(
                    of: UInt8(ascii: "?"),
                    in: payload,
                    from: reduced.start,
                    to: plainEnd
                )
                if query < plainEnd { pathCount = written &+ query &- reduced.start }
                written &+= plainCount
            }
            var index = plainEnd
            while index < reduced.end {
                let byte = payload[index]
                if byte == UInt8(ascii: "?"), pathCount < 0 { pathCount = written }
                if byte == UInt8(ascii: "%"), index + 2 < reduced.end,
                    let decoded = Hex.byte(payload[index + 1], payload[index + 2])
                {
                    if LinkValidator._isUnreserved(decoded) {
                        destination[written] = decoded
                        written += 1
                    } else {
                        destination[written] = byte
                        destination[written + 1] = Self._uppercasedHex(payload[index + 1])
                        destination[written + 2] = Self._uppercasedHex(payload[index + 2])
                        written += 3
                    }
                    index += 3
                    continue
                }
                destination[written] = byte
                written += 1
                index += 1
            }
        }
        self._count = UInt16(written)
        self._pathCount = UInt16(pathCount < 0 ? written : pathCount)
        #if DEBUG
        _checkReducedInvariants()
        #endif
    }

    /// `a`…`f` as `A`…`F`; any other byte unchanged.
    @inline(__always)
    internal static func _uppercasedHex(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f") ? byte - 0x20 : byte
    }

    #if DEBUG
    /// The invariants every validated link holds (see ``LinkValidator``).
    internal func _checkReducedInvariants() {
        withUTF8Bytes { bytes in
            assert(!bytes.isEmpty && bytes[0] == UInt8(ascii: "/"), "a link starts with /")
            assert(bytes.count <= DeepLink.capacity, "a link fits inline")
            for byte in bytes {
                assert(byte >= 0x20 && byte != 0x7F && byte != UInt8(ascii: "\\"), "no control byte, no backslash")
            }
            var index = 0
            while index < bytes.count {
                defer { index += 1 }
                guard bytes[index] == UInt8(ascii: "%") else { continue }
                assert(index + 2 < bytes.count, "an escape has two hex digits")
                let high = bytes[index + 1]
                let low = bytes[index + 2]
                assert(
                    DeepLink._uppercasedHex(high) == high && DeepLink._uppercasedHex(low) == low,
                    "escapes are uppercase"
                )
                let decoded = Hex.byte(high, low)
                assert(decoded.map { !LinkValidator._isUnreserved($0) } == true, "unreserved bytes are not escaped")
                index += 2
            }
        }
    }
    #endif
}
