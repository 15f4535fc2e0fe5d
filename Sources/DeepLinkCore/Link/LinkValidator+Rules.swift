// The validator's rules, in the order of `LinkRejection.precedence` (the content pass is in
// LinkValidator+Content.swift). Every function here reads the payload through an
// `UnsafeRawBufferPointer` owned by the caller and allocates nothing.

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
                let decoded = Hex.byte(bytes[index + 1], bytes[index + 2])
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
