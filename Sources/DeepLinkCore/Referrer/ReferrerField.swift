/// One `name=value` field of a referrer, as a view into the parsed bytes: nothing is copied or
/// decoded until asked for.
///
/// ``rawName`` and ``rawValue`` are the bytes as they appear in the input (still encoded). The
/// decoded forms are produced lazily: compared against a literal (``nameEquals(_:)-(StaticString)``),
/// written into a buffer the caller supplies (``decodeValue(into:)``), lent to a closure
/// (``withDecodedValue(_:)``) or, for display only, materialised as a `String` with U+FFFD for
/// invalid UTF-8 (``decodedName``).
///
/// A field is only valid inside the closure that received it (``ReferrerParser/withReferrer(in:_:)``
/// or iteration of ``ReferrerFields`` over bytes that closure lends); never store one.
///
/// Thread safety: not `Sendable`; it borrows bytes owned by the caller of the parser.
@usableFromInline
package struct ReferrerField {
    /// The name as it appears in the input (before `=`), still encoded.
    @usableFromInline package let rawName: UnsafeRawBufferPointer

    /// The value as it appears in the input (after the first `=`), still encoded; empty when the
    /// field has no `=`.
    @usableFromInline package let rawValue: UnsafeRawBufferPointer

    /// Whether the field contained a `=` (`key=` and `key` both have an empty value).
    @usableFromInline package let hasSeparator: Bool

    /// How many bytes of the parsed input follow ``rawValue`` (its `&` first): the payload's
    /// decoder may read those instead of copying the value out first. 0 when unknown.
    @usableFromInline
    internal let _bytesAfterValue: Int

    @inlinable
    internal init(
        rawName: UnsafeRawBufferPointer,
        rawValue: UnsafeRawBufferPointer,
        hasSeparator: Bool,
        bytesAfterValue: Int = 0
    ) {
        self.rawName = rawName
        self.rawValue = rawValue
        self.hasSeparator = hasSeparator
        self._bytesAfterValue = bytesAfterValue
    }

    /// The whole field as it appears in the input (`name=value` or `name`).
    @inlinable
    package var rawField: UnsafeRawBufferPointer {
        guard hasSeparator, let base = rawName.baseAddress else { return rawName }
        return UnsafeRawBufferPointer(start: base, count: rawName.count + 1 + rawValue.count)
    }

    /// Whether the decoded name equals `literal` (no allocation, no materialisation).
    ///
    /// - Complexity: O(n) in the name's length.
    @inlinable
    package func nameEquals(_ literal: StaticString) -> Bool { FormDecoding.decoded(rawName, equals: literal) }

    /// Whether the decoded name equals the UTF-8 of `name` (no allocation for native strings).
    ///
    /// - Complexity: O(n) in the name's length.
    @inlinable
    package func nameEquals(_ name: String) -> Bool { FormDecoding.decoded(rawName, equals: name) }

    /// Whether the decoded value equals `literal` (no allocation, no materialisation).
    ///
    /// - Complexity: O(n) in the value's length.
    @inlinable
    package func valueEquals(_ literal: StaticString) -> Bool { FormDecoding.decoded(rawValue, equals: literal) }

    /// The decoded name's length in bytes (decodes without storing).
    package var decodedNameCount: Int { FormDecoding.decodedCount(rawName) }

    /// The decoded value's length in bytes (decodes without storing).
    package var decodedValueCount: Int { FormDecoding.decodedCount(rawValue) }

    /// Decodes the name into `destination`; returns the byte count, or `nil` when it does not fit
    /// (`rawName.count` bytes always fit).
    @inlinable
    package func decodeName(into destination: UnsafeMutableRawBufferPointer) -> Int? {
        FormDecoding.decode(rawName, into: destination)
    }

    /// Decodes the value into `destination`; returns the byte count, or `nil` when it does not fit
    /// (`rawValue.count` bytes always fit).
    @inlinable
    package func decodeValue(into destination: UnsafeMutableRawBufferPointer) -> Int? {
        FormDecoding.decode(rawValue, into: destination, bytesAfter: _bytesAfterValue)
    }

    /// Lends `body` the decoded name, decoded into scratch space on the stack (no heap allocation
    /// for names up to ``ReferrerParser/Configuration/inputBytesCeiling`` bytes). The bytes are
    /// valid only inside `body` and may be invalid UTF-8.
    package func withDecodedName<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try Self._withDecoded(rawName, body)
    }

    /// Lends `body` the decoded value (see ``withDecodedName(_:)``).
    package func withDecodedValue<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try Self._withDecoded(rawValue, body)
    }

    /// The decoded name as a `String`, invalid UTF-8 replaced by U+FFFD (allocates; for display).
    package var decodedName: String { withDecodedName { String(decoding: $0, as: UTF8.self) } }

    /// The decoded value as a `String`, invalid UTF-8 replaced by U+FFFD (allocates; for display).
    package var decodedValue: String { withDecodedValue { String(decoding: $0, as: UTF8.self) } }

    /// Lends `body` the decoded bytes of `raw`, decoded into stack scratch space (with the
    /// decoder's ``FormDecoding/blockSlack``, so that it stores whole blocks in place).
    internal static func _withDecoded<R, E: Error>(
        _ raw: UnsafeRawBufferPointer,
        _ body: (UnsafeRawBufferPointer) throws(E) -> R
    ) throws(E) -> R {
        try _withScratchBytes(capacity: raw.count &+ FormDecoding.blockSlack) {
            (scratch: UnsafeMutableRawBufferPointer) throws(E) -> R in
            // The scratch holds more than raw.count bytes and decoding never grows the bytes.
            let count = FormDecoding.decode(raw, into: scratch) ?? 0
            return try body(UnsafeRawBufferPointer(rebasing: scratch[0..<count]))
        }
    }
}
