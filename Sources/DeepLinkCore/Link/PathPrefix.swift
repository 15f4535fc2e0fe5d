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
        var prefixCount = prefix.count
        while prefixCount > 1, prefix[prefixCount - 1] == slash { prefixCount -= 1 }
        guard prefixCount > 0, prefix[0] == slash else { return false }
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

    /// The byte at `index` of `bytes[..<end]` as the canonical form has it: an escape of an
    /// unreserved character (`%6F`) is that character (width 3); any other byte is itself (width 1).
    @inline(__always)
    static func unit(_ bytes: UnsafeRawBufferPointer, at index: Int, end: Int) -> (byte: UInt8, width: Int) {
        let byte = bytes[index]
        guard byte == UInt8(ascii: "%"), index + 2 < end,
            let decoded = LinkValidator._hexValue(bytes[index + 1], bytes[index + 2]),
            LinkValidator._isUnreserved(decoded)
        else { return (byte, 1) }
        return (decoded, 3)
    }

    @inline(__always)
    static func foldedASCII(_ byte: UInt8) -> UInt8 { LinkValidator._asciiLowercased(byte) }
}
