/// The fields of a form-encoded string, split per WHATWG `application/x-www-form-urlencoded`:
/// split on `&`, skip empty pieces, split each piece at its first `=` (no `=`: empty value).
///
/// Iterating yields ``ReferrerField`` views into ``bytes``; nothing is copied, decoded or allocated.
/// Lookups by name decode the names on the fly and compare them with the key.
///
/// This is a plain WHATWG splitter: it applies no limits and does not undo double encoding. Use
/// ``ReferrerParser/withReferrer(in:_:)``, which checks the configured limits first and lends a
/// ``ParsedReferrer`` whose fields are views of this kind.
///
/// Thread safety: not `Sendable`; it borrows bytes owned by the caller. Valid only while they are.
@usableFromInline
package struct ReferrerFields {
    /// The bytes being split.
    @usableFromInline package let bytes: UnsafeRawBufferPointer

    /// Splits `bytes`, which must stay valid while this value (and every field it yields) is used:
    /// call it inside the closure that lends them (e.g. `withUnsafeBytes`).
    @inlinable
    package init(unsafeBytes bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// The number of fields.
    ///
    /// - Complexity: O(n) in the byte count.
    package var count: Int {
        var count = 0
        var iterator = makeIterator()
        while iterator.next() != nil { count += 1 }
        return count
    }

    /// The first field whose decoded name is `name`, or `nil`.
    ///
    /// - Complexity: O(n) in the byte count.
    package func first(named name: StaticString) -> ReferrerField? {
        name.withUTF8Buffer { key in _first(named: key) }
    }

    /// The first field whose decoded name is the UTF-8 of `name`, or `nil` (no allocation).
    ///
    /// - Complexity: O(n) in the byte count.
    package func first(named name: String) -> ReferrerField? {
        if let found = name.utf8.withContiguousStorageIfAvailable({ key in _first(named: key) }) { return found }
        for field in self where field.nameEquals(name) { return field }
        return nil
    }

    /// The first field whose decoded name is `key`, or `nil`: the fields are split as the parser's
    /// scan splits them, and only a name whose first byte may start the key is decoded.
    internal func _first(named key: UnsafeBufferPointer<UInt8>) -> ReferrerField? {
        guard let base = bytes.baseAddress else { return nil }
        // As in the parser's scan: an empty name starts with its `=`.
        let keyFirst = key.isEmpty ? UInt8(ascii: "=") : key[0]
        var pieces = _Pieces(base, count: bytes.count)
        while let (start, end) = pieces.next() {
            guard end > start else { continue }
            let first = base.load(fromByteOffset: start, as: UInt8.self)
            guard first == keyFirst || first == UInt8(ascii: "%") || first == UInt8(ascii: "+") else { continue }
            let separator = _firstEqualSign(base, from: start, to: end)
            guard _decodedEquals(base + start, count: separator &- start, key: key) else { continue }
            return ReferrerField(
                rawName: UnsafeRawBufferPointer(start: base + start, count: separator &- start),
                rawValue: separator < end
                    ? UnsafeRawBufferPointer(start: base + (separator &+ 1), count: end &- separator &- 1)
                    : UnsafeRawBufferPointer(start: base + end, count: 0),
                hasSeparator: separator < end
            )
        }
        return nil
    }

    /// Lends `body` the decoded value of the first field named `key`, or `nil` when there is none.
    /// The value is decoded into stack scratch space and valid only inside `body`; it may be
    /// invalid UTF-8.
    package func withValue<R, E: Error>(
        forKey key: String,
        _ body: (UnsafeRawBufferPointer?) throws(E) -> R
    ) throws(E) -> R {
        guard let field = first(named: key) else { return try body(nil) }
        return try field.withDecodedValue { (value: UnsafeRawBufferPointer) throws(E) -> R in try body(value) }
    }
}
