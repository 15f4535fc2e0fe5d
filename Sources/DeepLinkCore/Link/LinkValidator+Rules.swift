// The validator's rules, in the order of `LinkRejection.precedence`. Every function here reads the
// payload through an `UnsafeRawBufferPointer` owned by the caller and allocates nothing.

/// Where the canonical link lies inside the payload: `payload[start..<end]` (path and query, no
/// fragment), preceded by a `/` the payload does not contain when `needsLeadingSlash` is set
/// (`https://host?x=1` reduces to `/?x=1`, `myapp://product/42` to `/product/42`).
internal struct _ReducedLink {
    var needsLeadingSlash: Bool
    var start: Int
    var end: Int
    /// Bytes the canonical form drops: two per escaped unreserved character (`%6F` becomes `o`).
    var decodedEscapeBytes: Int = 0

    init(needsLeadingSlash: Bool, start: Int, end: Int) {
        self.needsLeadingSlash = needsLeadingSlash
        self.start = start
        self.end = end
    }

    /// The reduced link's length in the payload, in bytes (the implied `/` included).
    var utf8Count: Int { (needsLeadingSlash ? 1 : 0) + end - start }

    /// The canonical link's length in bytes.
    var canonicalUTF8Count: Int { utf8Count - decodedEscapeBytes }
}

extension LinkValidator {
    internal func _validate(_ payload: UnsafeRawBufferPointer) -> Result<DeepLink, LinkRejection> {
        switch _check(payload) {
        case .success(let reduced): .success(DeepLink(_reduced: reduced, of: payload))
        case .failure(let rejection): .failure(rejection)
        }
    }

    /// Every rule, without building the link: where the canonical link lies in `payload`, or the
    /// first rejection by precedence.
    internal func _check(_ payload: UnsafeRawBufferPointer) -> Result<_ReducedLink, LinkRejection> {
        guard !payload.isEmpty else { return .failure(.empty) }
        if let rejection = Self._contentRejection(payload) { return .failure(rejection) }
        let reduced: _ReducedLink
        switch _reduce(payload) {
        case .success(let link): reduced = link
        case .failure(let rejection): return .failure(rejection)
        }
        let pathEnd = Self._pathEnd(payload, reduced)
        if Self._startsWithTwoSlashes(payload, reduced, pathEnd: pathEnd) {
            return .failure(.schemeRelative)
        }
        // With an implied `/`, the payload's bytes from `start` are the first segment.
        if Self._hasDotSegment(payload, from: reduced.start, to: pathEnd) {
            return .failure(.dotSegment)
        }
        var canonical = reduced
        guard let decodedEscapeBytes = Self._escapes(payload, reduced, pathEnd: pathEnd) else {
            return .failure(.encodedDelimiter)
        }
        canonical.decodedEscapeBytes = decodedEscapeBytes
        guard canonical.canonicalUTF8Count <= DeepLink.capacity else { return .failure(.tooLong) }
        if let routes = _routes, !Self._matchesRoute(payload, reduced, pathEnd: pathEnd, routes: routes) {
            return .failure(.unknownRoute)
        }
        return .success(canonical)
    }

    // MARK: - Content: UTF-8, control and invisible characters, backslashes, escapes

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
                guard index + 2 < count, let decoded = _hexValue(bytes[index + 1], bytes[index + 2]) else {
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

    // MARK: - Form: path, scheme, host

    /// Classifies the payload's form and finds the canonical link inside it.
    internal func _reduce(_ bytes: UnsafeRawBufferPointer) -> Result<_ReducedLink, LinkRejection> {
        let count = bytes.count
        if bytes[0] == UInt8(ascii: "/") {
            return .success(_ReducedLink(needsLeadingSlash: false, start: 0, end: Self._fragmentStart(bytes, from: 0)))
        }
        guard let colon = Self._schemeEnd(bytes) else { return .failure(.notAPath) }
        guard colon == 5, Self._equalsASCIICaseInsensitive(bytes, 0..<5, lowercase: "https") else {
            guard _isCustomScheme(bytes, 0..<colon) else { return .failure(.disallowedScheme) }
            // `myapp://product/42`: everything after `//` is the path.
            let start = colon + 3
            guard count >= start, bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/") else {
                return .failure(.notAPath)
            }
            let end = Self._fragmentStart(bytes, from: start)
            let hasSlash = start < end && bytes[start] == UInt8(ascii: "/")
            return .success(_ReducedLink(needsLeadingSlash: !hasSlash, start: start, end: end))
        }
        guard count >= 8, bytes[6] == UInt8(ascii: "/"), bytes[7] == UInt8(ascii: "/") else {
            return .failure(.notAPath)
        }
        var authorityEnd = 8
        while authorityEnd < count {
            let byte = bytes[authorityEnd]
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
            authorityEnd += 1
        }
        guard _isAllowedAuthority(bytes, 8..<authorityEnd) else { return .failure(.foreignHost) }
        let end = Self._fragmentStart(bytes, from: authorityEnd)
        let hasPath = authorityEnd < end && bytes[authorityEnd] == UInt8(ascii: "/")
        return .success(_ReducedLink(needsLeadingSlash: !hasPath, start: authorityEnd, end: end))
    }

    /// The index of the `:` ending a URI scheme (`ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`), or
    /// `nil` when the payload does not start with one.
    internal static func _schemeEnd(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard _isASCIILetter(bytes[0]) else { return nil }
        var index = 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ":") { return index }
            let isSchemeByte =
                _isASCIILetter(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            guard isSchemeByte else { return nil }
            index += 1
        }
        return nil
    }

    /// Whether `bytes[scheme]` is one of the app's custom schemes (ASCII case-insensitive).
    internal func _isCustomScheme(_ bytes: UnsafeRawBufferPointer, _ scheme: Range<Int>) -> Bool {
        for schemeIndex in _customSchemes.indices {
            let allowed = _customSchemes[schemeIndex]
            guard allowed.count == scheme.count else { continue }
            var offset = 0
            while offset < allowed.count, Self._asciiLowercased(bytes[scheme.lowerBound + offset]) == allowed[offset] {
                offset += 1
            }
            if offset == allowed.count { return true }
        }
        return false
    }

    /// Whether `host[:port]` names an allowed host: no userinfo, port empty or 443.
    internal func _isAllowedAuthority(_ bytes: UnsafeRawBufferPointer, _ authority: Range<Int>) -> Bool {
        // The first `@` or `:`, then any `@` after a `:` (a `@` anywhere is userinfo), eight bytes
        // at a time.
        var hostEnd = Self._firstIndex(
            of: UInt8(ascii: "@"),
            or: UInt8(ascii: ":"),
            in: bytes,
            from: authority.lowerBound,
            to: authority.upperBound
        )
        if hostEnd < authority.upperBound {
            if bytes[hostEnd] == UInt8(ascii: "@") { return false }
            let userinfo = Self._firstIndex(
                of: UInt8(ascii: "@"),
                in: bytes,
                from: hostEnd + 1,
                to: authority.upperBound
            )
            guard userinfo == authority.upperBound else { return false }
            let portCount = authority.upperBound - hostEnd - 1
            let isDefaultPort =
                portCount == 0
                || (portCount == 3 && bytes[hostEnd + 1] == UInt8(ascii: "4")
                    && bytes[hostEnd + 2] == UInt8(ascii: "4") && bytes[hostEnd + 3] == UInt8(ascii: "3"))
            guard isDefaultPort else { return false }
        } else {
            hostEnd = authority.upperBound
        }
        let host = authority.lowerBound..<hostEnd
        let tables = _tables
        // Plain subscripts, no `withUnsafeBufferPointer` closures: those allocate a context in
        // debug builds.
        for hostIndex in tables.allowedHosts.indices {
            let allowed = tables.allowedHosts[hostIndex]
            guard allowed.count == host.count else { continue }
            if allowed.count >= 8, let base = bytes.baseAddress {
                // Eight bytes at a time, lowercased in the word: the whole words, then the last
                // eight bytes (overlapping the last whole word unless the length is a multiple).
                let first = tables.hostWordStarts[hostIndex]
                let wholeWords = allowed.count / 8
                var word = 0
                while word < wholeWords,
                    Self._asciiLowercasedWord(_word(base, host.lowerBound + 8 * word))
                        == tables.hostWords[first + word]
                {
                    word += 1
                }
                if word == wholeWords,
                    Self._asciiLowercasedWord(_word(base, host.upperBound - 8))
                        == tables.hostWords[first + wholeWords]
                {
                    return true
                }
                continue
            }
            var offset = 0
            while offset < allowed.count, Self._asciiLowercased(bytes[host.lowerBound + offset]) == allowed[offset] {
                offset += 1
            }
            if offset == allowed.count { return true }
        }
        return false
    }

    /// `word` with its ASCII capitals lowercased (eight ``_asciiLowercased(_:)`` at once).
    @inline(__always)
    internal static func _asciiLowercasedWord(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        // Without the high bits, adding cannot carry into the next byte.
        let low7 = word & (ones &* 0x7F)
        let fromA = low7 &+ ones &* (0x80 - 0x41)
        let pastZ = low7 &+ ones &* (0x80 - 0x5B)
        let capitals = fromA & ~pastZ & ~word & (ones &* 0x80)
        return word | capitals &>> 2
    }

    // MARK: - Path: double slash, dot segments

    /// Whether the reduced path (an implied `/` when `needsLeadingSlash`, then
    /// `bytes[start..<pathEnd]`) begins with two slashes, the second possibly encoded (`//`, `/%2F`).
    internal static func _startsWithTwoSlashes(
        _ bytes: UnsafeRawBufferPointer,
        _ reduced: _ReducedLink,
        pathEnd end: Int
    ) -> Bool {
        let start = reduced.start
        if reduced.needsLeadingSlash { return start < end && _separatorLength(bytes, at: start, end: end) > 0 }
        guard start + 1 < end, bytes[start] == UInt8(ascii: "/") else { return false }
        return bytes[start + 1] == UInt8(ascii: "/") || _separatorLength(bytes, at: start + 1, end: end) == 3
    }

    /// Whether any segment of the path `bytes[start..<end]` (separated by `/` or `%2F`) is `.` or
    /// `..`, each dot raw or encoded as `%2E`, ignoring `;` parameters.
    internal static func _hasDotSegment(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Bool {
        // A dot segment needs a `.` or a `%2E`: most paths have neither.
        guard _firstIndex(of: UInt8(ascii: "."), or: UInt8(ascii: "%"), in: bytes, from: start, to: end) < end else {
            return false
        }
        var segmentStart = start
        var index = start
        while index <= end {
            let separator = index == end ? 1 : _separatorLength(bytes, at: index, end: end)
            if separator > 0 {
                if _isDotSegment(bytes, from: segmentStart, to: index) { return true }
                index += separator
                segmentStart = index
            } else {
                index += 1
            }
        }
        return false
    }

    /// 1 for `/`, 3 for `%2F`/`%2f`, 0 otherwise.
    internal static func _separatorLength(_ bytes: UnsafeRawBufferPointer, at index: Int, end: Int) -> Int {
        let byte = bytes[index]
        if byte == UInt8(ascii: "/") { return 1 }
        if byte == UInt8(ascii: "%"), index + 2 < end, bytes[index + 1] == UInt8(ascii: "2"),
            bytes[index + 2] | 0x20 == UInt8(ascii: "f")
        {
            return 3
        }
        return 0
    }

    internal static func _isDotSegment(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Bool {
        var dots = 0
        var index = start
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: ";") { break }  // `..;x` is `..` to servlet-style routers
            if byte == UInt8(ascii: ".") {
                index += 1
            } else if byte == UInt8(ascii: "%"), index + 2 < end, bytes[index + 1] == UInt8(ascii: "2"),
                bytes[index + 2] | 0x20 == UInt8(ascii: "e")
            {
                index += 3
            } else {
                return false
            }
            dots += 1
        }
        return dots == 1 || dots == 2
    }

    // MARK: - Escapes: encoded delimiters, the canonical length

    /// Over the reduced link (path and query): `nil` when the path holds an encoded delimiter
    /// (``LinkRejection/encodedDelimiter``), otherwise how many bytes the canonical form drops (two
    /// per escaped unreserved character). Every `%` starts a valid escape here (the content pass
    /// refused the others).
    internal static func _escapes(_ bytes: UnsafeRawBufferPointer, _ reduced: _ReducedLink, pathEnd: Int) -> Int? {
        var dropped = 0
        var index = _firstIndex(of: UInt8(ascii: "%"), in: bytes, from: reduced.start, to: reduced.end)
        while index < reduced.end {
            guard bytes[index] == UInt8(ascii: "%"), index + 2 < reduced.end,
                let decoded = _hexValue(bytes[index + 1], bytes[index + 2])
            else {
                index += 1
                continue
            }
            if index < pathEnd, _isPathDelimiter(decoded) { return nil }
            if _isUnreserved(decoded) { dropped += 2 }
            index += 3
        }
        return dropped
    }

    /// `/`, `?`, `#` and `;`: the bytes a router splits a path at, once it has decoded them.
    @inline(__always)
    internal static func _isPathDelimiter(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") || byte == UInt8(ascii: ";")
    }

    /// RFC 3986 `unreserved`: ALPHA / DIGIT / `-` / `.` / `_` / `~`. Its escapes decode in the
    /// canonical form (RFC 3986 6.2.2.2).
    @inline(__always)
    internal static func _isUnreserved(_ byte: UInt8) -> Bool {
        _isASCIILetter(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
    }

    // MARK: - Routes

    internal static func _matchesRoute(
        _ bytes: UnsafeRawBufferPointer,
        _ reduced: _ReducedLink,
        pathEnd: Int,
        routes: [[UInt8]]
    ) -> Bool {
        let path = UnsafeRawBufferPointer(rebasing: bytes[reduced.start..<pathEnd])
        for routeIndex in routes.indices {
            let matched = routes[routeIndex].withUnsafeBytes { prefix in
                PathPrefix.path(path, impliedLeadingSlash: reduced.needsLeadingSlash, isUnder: prefix)
            }
            if matched { return true }
        }
        return false
    }

    // MARK: - Small helpers

    /// The end of the reduced link's path: its first `?`, or its end.
    internal static func _pathEnd(_ bytes: UnsafeRawBufferPointer, _ reduced: _ReducedLink) -> Int {
        _firstIndex(of: UInt8(ascii: "?"), in: bytes, from: reduced.start, to: reduced.end)
    }

    /// The index of the first `#` at or after `start`, or the payload's end.
    internal static func _fragmentStart(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        _firstIndex(of: UInt8(ascii: "#"), in: bytes, from: start, to: bytes.count)
    }

    /// The index of the first `byte` in `bytes[start..<end]`, or `end`.
    @inline(__always)
    internal static func _firstIndex(
        of byte: UInt8,
        in bytes: UnsafeRawBufferPointer,
        from start: Int,
        to end: Int
    ) -> Int {
        _firstIndex(of: byte, or: byte, in: bytes, from: start, to: end)
    }

    /// The index of the first `byte` or `other` in `bytes[start..<end]`, or `end`, reading eight
    /// bytes at a time.
    @inline(__always)
    internal static func _firstIndex(
        of byte: UInt8,
        or other: UInt8,
        in bytes: UnsafeRawBufferPointer,
        from start: Int,
        to end: Int
    ) -> Int {
        guard let base = bytes.baseAddress else { return end }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let pattern = ones &* UInt64(byte)
        let otherPattern = ones &* UInt64(other)
        var index = start
        while index &+ 8 <= end {
            let word = _word(base, index)
            let matches = _zeroBytes(word ^ pattern) | _zeroBytes(word ^ otherPattern)
            if matches != 0 { return index &+ matches.trailingZeroBitCount &>> 3 }
            index &+= 8
        }
        while index < end {
            let next = base.load(fromByteOffset: index, as: UInt8.self)
            if next == byte || next == other { return index }
            index &+= 1
        }
        return end
    }

    internal static func _hexValue(_ high: UInt8, _ low: UInt8) -> UInt8? {
        guard let high = _hexDigit(high), let low = _hexDigit(low) else { return nil }
        return high << 4 | low
    }

    internal static func _hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    internal static func _isASCIILetter(_ byte: UInt8) -> Bool {
        let lowered = byte | 0x20
        return lowered >= UInt8(ascii: "a") && lowered <= UInt8(ascii: "z")
    }

    internal static func _asciiLowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    internal static func _equalsASCIICaseInsensitive(
        _ bytes: UnsafeRawBufferPointer,
        _ range: Range<Int>,
        lowercase expected: StaticString
    ) -> Bool {
        guard range.count == expected.utf8CodeUnitCount else { return false }
        return expected.withUTF8Buffer { expected in
            for offset in 0..<expected.count
            where _asciiLowercased(bytes[range.lowerBound + offset]) != expected[offset] {
                return false
            }
            return true
        }
    }
}

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
                    let decoded = LinkValidator._hexValue(payload[index + 1], payload[index + 2])
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
                let decoded = LinkValidator._hexValue(high, low)
                assert(decoded.map { !LinkValidator._isUnreserved($0) } == true, "unreserved bytes are not escaped")
                index += 2
            }
        }
    }
    #endif
}
