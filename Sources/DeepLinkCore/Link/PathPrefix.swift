/// The one rule for whether a path lies under a prefix, shared by ``LinkValidator``'s route table,
/// ``RoutePolicy``'s gates and ``DeepLink/hasPathPrefix(_:)``, so that what the validator accepts
/// and what the gate protects can never disagree.
///
/// Both sides are compared in the canonical form (see ``LinkValidator``): an escaped unreserved
/// character is that character (`/%6Frders` is `/orders`), and ASCII letters match in either case
/// (`/Orders` is under `/orders`), so a router that decodes or folds case cannot open a screen the
/// gate did not see. The prefix must end at a segment boundary of the path: where the path ends,
/// or at `/` or `;` (servlet-style routers strip `;parameters`). A trailing `/` in the prefix is
/// ignored, so `/orders/` and `/orders` are the same rule: both match `/orders`, `/orders/42`,
/// `/orders?x` and `/orders;p/42`, never `/ordersfoo`. `/` alone matches every path; an empty
/// prefix (or one not starting with `/`) matches nothing. Paths are compared without their query.
///
/// Why case-insensitive although RFC 3986 paths are case-sensitive (and ``DeepLink`` keeps the
/// case it was given): Jetpack Navigation compiles its deep-link patterns with
/// `Pattern.CASE_INSENSITIVE`, so `/ORDERS/42` opens the orders screen there. A gate that folds
/// case only ever asks for more events, never fewer.
///
/// Thread safety: stateless.
enum PathPrefix {
    /// Whether the path (`/` first when `impliedLeadingSlash`, then `path`'s bytes) lies under
    /// `prefix`.
    ///
    /// - Complexity: O(m) in the prefix length; no allocation.
    @inline(__always)
    static func path(
        _ path: UnsafeRawBufferPointer,
        impliedLeadingSlash: Bool,
        isUnder prefix: UnsafeRawBufferPointer
    ) -> Bool {
        let slash = UInt8(ascii: "/")
        guard let prefixCount = significantCount(of: prefix) else { return false }
        var prefixIndex = 0
        var pathIndex = 0
        if impliedLeadingSlash {
            prefixIndex = 1
        }
        while prefixIndex < prefixCount {
            guard pathIndex < path.count else { return false }
            let expected = unit(prefix, at: prefixIndex, end: prefixCount)
            let actual = unit(path, at: pathIndex, end: path.count)
            guard foldedASCII(expected.byte) == foldedASCII(actual.byte) else { return false }
            prefixIndex += expected.width
            pathIndex += actual.width
        }
        if prefixCount == 1 || pathIndex == path.count { return true }
        let next = path[pathIndex]
        return next == slash || next == UInt8(ascii: ";")
    }

    /// How many of `prefix`'s bytes the rule compares: all but a trailing `/` (`/` itself stays),
    /// or `nil` for a prefix that matches nothing (empty, or not starting with `/`).
    @inline(__always)
    static func significantCount(of prefix: UnsafeRawBufferPointer) -> Int? {
        var count = prefix.count
        while count > 1, prefix[count - 1] == UInt8(ascii: "/") { count -= 1 }
        guard count > 0, prefix[0] == UInt8(ascii: "/") else { return nil }
        return count
    }

    /// A prefix of at most 16 bytes with no `%`, as two words: its bytes ASCII-lowercased, zero
    /// after the last. `nil` for any other prefix (and for one that matches nothing).
    ///
    /// Such a prefix is matched by ``path(_:window:isUnder:prepared:)``: two masked word compares
    /// against the path's ``Window`` instead of a unit-by-unit loop. The prefixes apps gate
    /// (`/orders`, `/account`) are short and plain.
    static func shortPrefix(_ prefix: UnsafeRawBufferPointer) -> ShortPrefix? {
        guard let count = significantCount(of: prefix), count <= 16 else { return nil }
        var folded: (UInt64, UInt64) = (0, 0)
        var lanes: (UInt64, UInt64) = (0, 0)
        for index in 0..<count {
            guard prefix[index] != UInt8(ascii: "%") else { return nil }
            let shift = UInt64((index & 7) * 8)
            if index < 8 {
                folded.0 |= UInt64(foldedASCII(prefix[index])) << shift
                lanes.0 |= 0xFF << shift
            } else {
                folded.1 |= UInt64(foldedASCII(prefix[index])) << shift
                lanes.1 |= 0xFF << shift
            }
        }
        return ShortPrefix(folded: folded, lanes: lanes, count: count)
    }

    /// A prefix prepared by ``shortPrefix(_:)``: bytes in little-endian words.
    struct ShortPrefix: Sendable {
        var folded: (UInt64, UInt64)
        /// 0xFF in the prefix's bytes, 0 after.
        var lanes: (UInt64, UInt64)
        var count: Int
    }

    /// The first 16 bytes of a path's storage, read once for matching it against every
    /// ``ShortPrefix``: ASCII-lowercased, and where its `%` bytes are (the storage is read past the
    /// path; what lies beyond it is ignored).
    struct Window {
        /// The bytes, lowercased, as little-endian words.
        var folded: (UInt64, UInt64)
        /// 0x80 in each byte that is `%`.
        var escapes: (UInt64, UInt64)

        /// The window of the storage whose first 16 bytes are `first` and `second` (little-endian
        /// words).
        @inline(__always)
        init(_ first: UInt64, _ second: UInt64) {
            folded = (foldedASCII(first), foldedASCII(second))
            escapes = (_exactZeroBytes(first ^ percents), _exactZeroBytes(second ^ percents))
        }
    }

    /// ``path(_:impliedLeadingSlash:isUnder:)`` (no implied slash) for `prefix` prepared as
    /// `short`, with `window` read from the path's storage. The same answer: where neither side has
    /// a `%`, every byte is its own unit, so the unit loop compares exactly these bytes folded; a
    /// path with an escape among its first bytes goes to that loop.
    @inline(__always)
    static func path(
        _ path: UnsafeRawBufferPointer,
        window: Window,
        isUnder prefix: UnsafeRawBufferPointer,
        prepared short: ShortPrefix
    ) -> Bool {
        Self.path(path, window: window, isUnder: short) ?? Self.path(path, impliedLeadingSlash: false, isUnder: prefix)
    }

    /// The word comparison of ``path(_:window:isUnder:prepared:)``, or `nil` when the path has a
    /// `%` among the bytes it compares (only the unit loop answers then).
    @inline(__always)
    static func path(_ path: UnsafeRawBufferPointer, window: Window, isUnder short: ShortPrefix) -> Bool? {
        // Each prefix byte is one unit, each path unit at least one byte: a shorter path runs out.
        guard path.count >= short.count else { return false }
        if (window.escapes.0 & short.lanes.0) | (window.escapes.1 & short.lanes.1) != 0 { return nil }
        let differences =
            ((window.folded.0 ^ short.folded.0) & short.lanes.0) | ((window.folded.1 ^ short.folded.1) & short.lanes.1)
        guard differences == 0 else { return false }
        if short.count == 1 || path.count == short.count { return true }
        let next = path[short.count]
        return next == UInt8(ascii: "/") || next == UInt8(ascii: ";")
    }

    private static let percents: UInt64 = 0x2525_2525_2525_2525
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// `word`'s bytes with ASCII `A`–`Z` lowercased (``foldedASCII(_:)`` on every byte).
    @inline(__always)
    private static func foldedASCII(_ word: UInt64) -> UInt64 {
        let low7 = word & ~highBits
        // Bit 7 of each byte: at least `A` (0x41), and past `Z` (0x5B); no carry crosses a byte.
        let atLeastA = low7 &+ 0x3F3F_3F3F_3F3F_3F3F
        let pastZ = low7 &+ 0x2525_2525_2525_2525
        let upper = atLeastA & ~pastZ & ~word & highBits
        return word | (upper &>> 2)
    }

    /// The byte at `index` of `bytes[..<end]` as the canonical form has it: an escape of an
    /// unreserved character (`%6F`) is that character (width 3); any other byte is itself (width 1).
    @inline(__always)
    static func unit(_ bytes: UnsafeRawBufferPointer, at index: Int, end: Int) -> (byte: UInt8, width: Int) {
        let byte = bytes[index]
        guard byte == UInt8(ascii: "%"), index + 2 < end,
            let decoded = Hex.byte(bytes[index + 1], bytes[index + 2]),
            LinkValidator._isUnreserved(decoded)
        else { return (byte, 1) }
        return (decoded, 3)
    }

    @inline(__always)
    static func foldedASCII(_ byte: UInt8) -> UInt8 { LinkValidator._asciiLowercased(byte) }
}
