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
public struct ReferrerFields {
    /// The bytes being split.
    public let bytes: UnsafeRawBufferPointer

    /// Splits `bytes`, which must stay valid while this value (and every field it yields) is used:
    /// call it inside the closure that lends them (e.g. `withUnsafeBytes`).
    @inlinable
    public init(unsafeBytes bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// The number of fields.
    ///
    /// - Complexity: O(n) in the byte count.
    public var count: Int {
        var count = 0
        var iterator = makeIterator()
        while iterator.next() != nil { count += 1 }
        return count
    }

    /// The first field whose decoded name is `name`, or `nil`.
    ///
    /// - Complexity: O(n) in the byte count.
    public func first(named name: StaticString) -> ReferrerField? {
        for field in self where field.nameEquals(name) { return field }
        return nil
    }

    /// The first field whose decoded name is the UTF-8 of `name`, or `nil` (no allocation).
    ///
    /// - Complexity: O(n) in the byte count.
    public func first(named name: String) -> ReferrerField? {
        for field in self where field.nameEquals(name) { return field }
        return nil
    }

    /// Lends `body` the decoded value of the first field named `key`, or `nil` when there is none.
    /// The value is decoded into stack scratch space and valid only inside `body`; it may be
    /// invalid UTF-8.
    public func withValue<R, E: Error>(
        forKey key: String,
        _ body: (UnsafeRawBufferPointer?) throws(E) -> R
    ) throws(E) -> R {
        guard let field = first(named: key) else { return try body(nil) }
        return try field.withDecodedValue { (value: UnsafeRawBufferPointer) throws(E) -> R in try body(value) }
    }
}
