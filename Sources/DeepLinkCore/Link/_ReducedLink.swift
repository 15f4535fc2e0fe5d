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
