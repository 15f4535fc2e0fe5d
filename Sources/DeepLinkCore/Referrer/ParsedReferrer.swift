/// A referrer that passed the parser's limits, as views into its bytes: the WHATWG fields as given,
/// the fields that count (after undoing double encoding), the payload field and the attribution
/// fields. Nothing is decoded until asked for.
///
/// Lent by ``ReferrerParser/withReferrer(in:_:)`` and valid only inside that closure; never store it.
///
/// Thread safety: not `Sendable`; it borrows the caller's bytes (and, for a double-encoded
/// referrer, the parser's stack scratch).
@usableFromInline
package struct ParsedReferrer {
    /// The WHATWG fields of the input exactly as given (what `parse_qsl` would list).
    package let fields: ReferrerFields

    /// The fields the verdict is read from: ``fields`` itself, or for a double-encoded referrer the
    /// fields of the input decoded once.
    package let effectiveFields: ReferrerFields

    /// Whether the input was double-encoded (no raw `=` or `&`, but `%3D`/`%26` inside) and was
    /// therefore decoded once and parsed again.
    package let isDoubleEncoded: Bool

    /// The number of ``effectiveFields`` (at most ``ReferrerParser/Configuration/maxFields``).
    package let fieldCount: Int

    /// The one effective field named by ``ReferrerParser/Configuration/payloadKey``, or `nil` (a
    /// referrer naming it twice is refused before it is lent).
    package let payload: ReferrerField?

    @usableFromInline
    internal init(
        fields: ReferrerFields,
        effectiveFields: ReferrerFields,
        isDoubleEncoded: Bool,
        fieldCount: Int,
        payload: ReferrerField?
    ) {
        self.fields = fields
        self.effectiveFields = effectiveFields
        self.isDoubleEncoded = isDoubleEncoded
        self.fieldCount = fieldCount
        self.payload = payload
        #if DEBUG
        _checkInvariants()
        #endif
    }

    /// The first effective field for `attribution` (e.g. `utm_source`), or `nil`.
    ///
    /// - Complexity: O(n) in the byte count.
    package func field(_ attribution: LinkAttribution.Field) -> ReferrerField? {
        effectiveFields.first(named: attribution.key)
    }

    /// Play's placeholder, when `utm_source` and `utm_medium` (their first occurrences, decoded)
    /// are `google-play`/`organic` or both `(not set)`; otherwise `nil`.
    ///
    /// - Complexity: O(n) in the byte count.
    package var placeholder: PlayPlaceholder? {
        guard let source = field(.utmSource), let medium = field(.utmMedium) else { return nil }
        return PlayPlaceholder._of(source: source.rawValue, medium: medium.rawValue)
    }

    #if DEBUG
    internal func _checkInvariants() {
        assert(fieldCount == effectiveFields.count, "fieldCount must count the effective fields")
        assert(isDoubleEncoded || effectiveFields.bytes.baseAddress == fields.bytes.baseAddress)
        if let payload, let base = effectiveFields.bytes.baseAddress, let name = payload.rawName.baseAddress {
            assert(name >= base && name + payload.rawName.count <= base + effectiveFields.bytes.count)
        }
    }
    #endif
}

extension PlayPlaceholder {
    /// The placeholder that the raw `utm_source` and `utm_medium` values spell, or `nil`.
    internal static func _of(source: UnsafeRawBufferPointer, medium: UnsafeRawBufferPointer) -> PlayPlaceholder? {
        if _decoded(source, equals: "google-play"), _decoded(medium, equals: "organic") { return .organic }
        if _decoded(source, equals: "(not set)"), _decoded(medium, equals: "(not set)") { return .notSet }
        return nil
    }

    /// ``FormDecoding/decoded(_:equals:)-(_,StaticString)``, named so that a literal is never read as a
    /// `String`.
    private static func _decoded(_ raw: UnsafeRawBufferPointer, equals literal: StaticString) -> Bool {
        FormDecoding.decoded(raw, equals: literal)
    }
}
