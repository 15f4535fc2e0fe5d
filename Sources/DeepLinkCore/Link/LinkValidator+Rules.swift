// The validator's rules, in the order of `LinkRejection.precedence`. Every function here reads the
// payload through an `UnsafeRawBufferPointer` owned by the caller and allocates nothing.

/// Where the canonical link lies inside the payload: `payload[start..<end]` (path and query, no
/// fragment), preceded by a `/` the payload does not contain when `needsLeadingSlash` is set
/// (`https://host?x=1` reduces to `/?x=1`, `myapp://product/42` to `/product/42`).
internal struct _ReducedLink {
    var needsLeadingSlash: Bool
    var start: Int
    var end: Int

    init(needsLeadingSlash: Bool, start: Int, end: Int) {
        self.needsLeadingSlash = needsLeadingSlash
        self.start = start
        self.end = end
    }

    /// The canonical link's length in bytes.
    var utf8Count: Int { (needsLeadingSlash ? 1 : 0) + end - start }
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
        guard reduced.utf8Count <= DeepLink.capacity else { return .failure(.tooLong) }
        if let routes = _routes, !Self._matchesRoute(payload, reduced, pathEnd: pathEnd, routes: routes) {
            return .failure(.unknownRoute)
        }
        return .success(reduced)
    }

    // MARK: - Content: UTF-8, control characters, backslashes

    /// One pass over the whole payload: strict UTF-8 (Unicode Table 3-7), then control characters,
    /// then backslashes, each raw or percent-encoded. Returns the first reason by precedence.
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

    internal static func _contentRejection(_ bytes: UnsafeRawBufferPointer) -> LinkRejection? {
        let count = bytes.count
        var sawControl = false
        var sawBackslash = false
        // The byte the previous `%XX` escape decoded to, to catch an encoded C1 (`%C2%85`); -1 when
        // the previous unit was not an escape.
        var previousEscape = -1
        var index = 0
        while index < count {
            // Eight plain bytes at a time (printable ASCII other than `%` and `\`): most links are
            // nothing else, and none of these bytes changes any of the state below.
            if index + 8 <= count, Self._arePlain(bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
                previousEscape = -1
                index += 8
                continue
            }
            let byte = bytes[index]
            if byte < 0x80 {
                if byte == UInt8(ascii: "%"), index + 2 < count,
                    let decoded = _hexValue(bytes[index + 1], bytes[index + 2])
                {
                    if decoded < 0x20 || decoded == 0x7F { sawControl = true }
                    if decoded == UInt8(ascii: "\\") { sawBackslash = true }
                    if previousEscape == 0xC2, decoded >= 0x80, decoded <= 0x9F { sawControl = true }
                    previousEscape = Int(decoded)
                    index += 3
                    continue
                }
                if byte < 0x20 || byte == 0x7F { sawControl = true }
                if byte == UInt8(ascii: "\\") { sawBackslash = true }
                previousEscape = -1
                index += 1
                continue
            }
            previousEscape = -1
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
            var continuation = index + 2
            while continuation < index + length {
                guard bytes[continuation] & 0xC0 == 0x80 else { return .invalidUTF8 }
                continuation += 1
            }
            if byte == 0xC2, second <= 0x9F { sawControl = true }  // U+0080…U+009F
            index += length
        }
        if sawControl { return .controlCharacter }
        if sawBackslash { return .backslash }
        return nil
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
        var hostEnd = authority.upperBound
        for index in authority {
            let byte = bytes[index]
            if byte == UInt8(ascii: "@") { return false }
            if byte == UInt8(ascii: ":"), hostEnd == authority.upperBound { hostEnd = index }
        }
        if hostEnd < authority.upperBound {
            let portCount = authority.upperBound - hostEnd - 1
            let isDefaultPort =
                portCount == 0
                || (portCount == 3 && bytes[hostEnd + 1] == UInt8(ascii: "4")
                    && bytes[hostEnd + 2] == UInt8(ascii: "4") && bytes[hostEnd + 3] == UInt8(ascii: "3"))
            guard isDefaultPort else { return false }
        }
        let host = authority.lowerBound..<hostEnd
        // Plain subscripts, no `withUnsafeBufferPointer` closures: those allocate a context in
        // debug builds.
        for hostIndex in _allowedHosts.indices {
            let allowed = _allowedHosts[hostIndex]
            guard allowed.count == host.count else { continue }
            var offset = 0
            while offset < allowed.count, Self._asciiLowercased(bytes[host.lowerBound + offset]) == allowed[offset] {
                offset += 1
            }
            if offset == allowed.count { return true }
        }
        return false
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
        var index = reduced.start
        while index < reduced.end, bytes[index] != UInt8(ascii: "?") { index += 1 }
        return index
    }

    /// The index of the first `#` at or after `start`, or the payload's end.
    internal static func _fragmentStart(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        var index = start
        while index < bytes.count, bytes[index] != UInt8(ascii: "#") { index += 1 }
        return index
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

    /// Overwrites this link, in place, with the reduced link of `payload`. Bytes past the new count
    /// keep what was there (nothing reads them: equality and hashing use the first `utf8Count`).
    internal mutating func _assign(_ reduced: _ReducedLink, of payload: UnsafeRawBufferPointer) {
        self._count = UInt16(reduced.utf8Count)
        self._pathCount = UInt16(reduced.utf8Count)
        var pathCount = reduced.utf8Count
        var written = 0
        var span = _storage.mutableSpan
        span.withUnsafeMutableBytes { destination in
            if reduced.needsLeadingSlash {
                destination[0] = UInt8(ascii: "/")
                written = 1
            }
            for index in reduced.start..<reduced.end {
                let byte = payload[index]
                if byte == UInt8(ascii: "?"), pathCount == reduced.utf8Count { pathCount = written }
                destination[written] = byte
                written += 1
            }
        }
        self._pathCount = UInt16(pathCount)
        #if DEBUG
        _checkReducedInvariants()
        #endif
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
        }
    }
    #endif
}
