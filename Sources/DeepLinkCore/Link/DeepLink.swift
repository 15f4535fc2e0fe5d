/// A validated, canonical app-internal link: a path that starts with `/`, optionally followed by
/// `?` and a query, stored inline in a fixed capacity so that creating, copying and comparing one
/// never touches the heap.
///
/// A `DeepLink` is only ever produced by ``LinkValidator`` (or by ``init(validatedUTF8:)`` from
/// bytes that already passed it), so holding one is proof that the payload was checked: it is
/// valid UTF-8, free of control and invisible characters, backslashes, dot segments, malformed
/// escapes and encoded path delimiters, and at most ``capacity`` bytes long. Its bytes are the
/// canonical form (see ``LinkValidator``): no escaped unreserved character, uppercase hex in every
/// other escape. So every consumer (the route table, the gate, the router, the store) sees one
/// spelling of the link, and validating a link's bytes again yields the same link.
///
/// Thread safety: a value type with no references; `Sendable`, safe to copy across threads.
///
/// - Complexity: Copying is O(``capacity``) (a fixed-size memory copy); equality is O(n) in the
///   link's length.
public struct DeepLink: Sendable {
    /// The largest link, in UTF-8 bytes, that fits inline. Longer payloads are rejected as
    /// ``LinkRejection/tooLong``.
    public static let capacity = 512

    @usableFromInline
    internal var _storage: InlineArray<512, UInt8>

    @usableFromInline
    internal var _count: UInt16

    /// Number of bytes before the `?` that starts the query, or `_count` when there is none.
    @usableFromInline
    internal var _pathCount: UInt16

    /// Creates a link from bytes that already passed validation.
    ///
    /// Returns `nil` when `bytes` is empty, does not start with `/`, or exceeds ``capacity``;
    /// it does not repeat the rest of the validator's checks.
    ///
    /// - Complexity: O(n).
    @inlinable
    public init?(validatedUTF8 bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty, bytes.count <= Self.capacity, bytes[0] == UInt8(ascii: "/") else { return nil }
        self._storage = InlineArray(repeating: 0)
        self._count = UInt16(bytes.count)
        var pathCount = bytes.count
        var span = _storage.mutableSpan
        span.withUnsafeMutableBytes { destination in
            for index in 0..<bytes.count {
                let byte = bytes[index]
                destination[index] = byte
                if byte == UInt8(ascii: "?"), pathCount == bytes.count { pathCount = index }
            }
        }
        self._pathCount = UInt16(pathCount)
    }

    /// The link's length in UTF-8 bytes.
    @inlinable
    public var utf8Count: Int { Int(_count) }

    /// The length of the path part (before any `?`), in UTF-8 bytes.
    @inlinable
    public var pathUTF8Count: Int { Int(_pathCount) }

    /// Whether the link carries a query (`?…`).
    @inlinable
    public var hasQuery: Bool { _pathCount < _count }

    /// Calls `body` with the link's UTF-8 bytes (path and query). The buffer is valid only inside
    /// `body`.
    @inlinable
    public func withUTF8Bytes<R, E: Error>(
        _ body: (UnsafeRawBufferPointer) throws(E) -> R
    ) throws(E) -> R {
        let count = Int(_count)
        return try _storage.span.withUnsafeBytes { (all: UnsafeRawBufferPointer) throws(E) -> R in
            try body(UnsafeRawBufferPointer(rebasing: all[0..<count]))
        }
    }

    /// Whether the path lies under `prefix` at a segment boundary: `/account` (or `/account/`)
    /// matches `/account`, `/account/7` and `/Account`, not `/accountant` (the rule of
    /// ``RoutePolicy`` and ``LinkValidator/Configuration/routes``). No allocation.
    ///
    /// - Complexity: O(m) where m is the prefix length.
    public func hasPathPrefix(_ prefix: StaticString) -> Bool {
        prefix.withUTF8Buffer { prefix in hasPathPrefix(bytes: UnsafeRawBufferPointer(prefix)) }
    }

    /// Whether the path lies under the UTF-8 bytes `prefix` at a segment boundary (see
    /// ``hasPathPrefix(_:)``). No allocation.
    public func hasPathPrefix(bytes prefix: UnsafeRawBufferPointer) -> Bool {
        let pathCount = Int(_pathCount)
        return withUTF8Bytes { bytes in
            PathPrefix.path(
                UnsafeRawBufferPointer(rebasing: bytes[0..<pathCount]),
                impliedLeadingSlash: false,
                isUnder: prefix
            )
        }
    }

    /// The whole link as a `String` (allocates; for reports and logs, not for hot paths).
    public var string: String {
        withUTF8Bytes { String(decoding: $0, as: UTF8.self) }
    }

    /// The path part as a `String` (allocates).
    public var path: String {
        withUTF8Bytes { String(decoding: UnsafeRawBufferPointer(rebasing: $0[0..<Int(_pathCount)]), as: UTF8.self) }
    }
}

extension DeepLink {
    /// `/`: a valid link to overwrite in place (see ``LinkValidator/validate(_:into:)``).
    static let _root = DeepLink(validated: "/")!

    /// `/`, built where it is stored: a capture record starts with it before its link is
    /// validated into it, and copying ``_root`` there moves all of its bytes.
    @inline(__always)
    init(_rootInPlace: Void) {
        _storage = InlineArray(repeating: 0)
        _storage[0] = UInt8(ascii: "/")
        _count = 1
        _pathCount = 1
    }

    /// Creates a link from a string that already passed validation (allocation-free for the link
    /// itself; see ``init(validatedUTF8:)``).
    public init?(validated string: String) {
        var copy = string
        guard let link = copy.withUTF8({ DeepLink(validatedUTF8: UnsafeRawBufferPointer($0)) }) else { return nil }
        self = link
    }
}
