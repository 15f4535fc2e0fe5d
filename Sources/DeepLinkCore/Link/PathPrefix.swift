/// The one rule for whether a path lies under a prefix, shared by ``LinkValidator``'s route table,
/// ``RoutePolicy``'s gates and ``DeepLink/hasPathPrefix(_:)``, so that what the validator accepts
/// and what the gate protects can never disagree.
///
/// A prefix matches a path that starts with it byte for byte and continues with `/` or ends there,
/// unless the prefix itself ends with `/`: `/account` matches `/account` and `/account/7`, never
/// `/accountant`; `/orders/` matches `/orders/7` but not `/orders`. An empty prefix matches
/// nothing. Paths are compared without their query.
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
        let implied = impliedLeadingSlash ? 1 : 0
        let pathCount = implied + path.count
        guard !prefix.isEmpty, prefix.count <= pathCount else { return false }
        var offset = 0
        if implied == 1 {
            guard prefix[0] == slash else { return false }
            offset = 1
        }
        while offset < prefix.count {
            guard path[offset - implied] == prefix[offset] else { return false }
            offset += 1
        }
        if prefix[prefix.count - 1] == slash || prefix.count == pathCount { return true }
        return path[prefix.count - implied] == slash
    }
}
