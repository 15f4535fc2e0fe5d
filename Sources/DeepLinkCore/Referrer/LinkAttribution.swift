/// The campaign a link came from: the referrer's `utm_*` and `gclid` values (decoded once) and
/// Play's click timestamp, kept inline in the ``PendingLink`` so that it travels with the link
/// through the queue, the store and the router without touching the heap.
///
/// Bounded: the six values share ``capacity`` bytes. A value that does not fit in what is left is
/// left out and ``isTruncated`` is set; the values before it are kept whole, so nothing is ever cut
/// in the middle.
///
/// ```swift
/// parser.withReferrer(in: bytes) { parsed in attribution.assign(from: parsed) }
/// attribution.value(.utmCampaign)   // "spring_sale"
/// ```
///
/// Thread safety: a value type with no references; `Sendable`.
public struct LinkAttribution: Sendable {
    /// How many bytes the six values may take together: a typical `gclid` (about 100 bytes) and
    /// short `utm_*` values. Every byte here is copied with each record (queue, machine, outbox),
    /// so it is kept small.
    public static let capacity = 128

    /// Where each field's value ends in `_bytes` (cumulative, in ``LinkAttribution/Field`` order); a
    /// field's value starts where the previous one ends.
    @usableFromInline
    internal var _ends: InlineArray<6, UInt8>

    /// Which fields the referrer carried (bit `i` for field `i`), so that an empty value
    /// (`utm_term=`) differs from an absent one.
    @usableFromInline
    internal var _present: UInt8

    /// How many fields there are (``LinkAttribution/Field``'s cases).
    @usableFromInline
    static let _fieldCount = 6

    /// Whether a value was left out for lack of room.
    public private(set) var isTruncated = false

    /// When the user clicked the link, in seconds since 1970 (Play's
    /// `referrerClickTimestampSeconds`); 0 when unknown.
    public var clickTimestampSeconds: UInt64

    /// The values back to back, in ``LinkAttribution/Field`` order. Last: the fixed fields above come
    /// first, so that a record's copy of them (see `PendingLink._assign`) is one block.
    @usableFromInline
    internal var _bytes: InlineArray<128, UInt8>

    /// No campaign: every field absent. Inlinable: every capture without a campaign builds one,
    /// and the call alone costs more than the zeroing.
    @inlinable
    public init(clickTimestampSeconds: UInt64 = 0) {
        self._bytes = InlineArray(repeating: 0)
        self._ends = InlineArray(repeating: 0)
        self._present = 0
        self.clickTimestampSeconds = clickTimestampSeconds
    }

    /// Whether no field is present.
    public var isEmpty: Bool { _present == 0 }

    /// Whether the referrer carried `field` (possibly with an empty value).
    public func contains(_ field: LinkAttribution.Field) -> Bool { _present & (1 << field._index) != 0 }

    /// Calls `body` with the decoded bytes of `field`, or `nil` when it is absent. The buffer is
    /// valid only inside `body`. No allocation.
    public func withValue<R, E: Error>(
        _ field: LinkAttribution.Field,
        _ body: (UnsafeRawBufferPointer?) throws(E) -> R
    ) throws(E) -> R {
        guard contains(field) else { return try body(nil) }
        let index = field._index
        let start = index == 0 ? 0 : Int(_ends[index - 1])
        let end = Int(_ends[index])
        return try _bytes.span.withUnsafeBytes { (all: UnsafeRawBufferPointer) throws(E) -> R in
            try body(UnsafeRawBufferPointer(rebasing: all[start..<end]))
        }
    }

    /// The value of `field` as text (invalid UTF-8 becomes U+FFFD), or `nil` when it is absent.
    /// Allocates; for reports and the app's analytics, not for hot paths.
    public func value(_ field: LinkAttribution.Field) -> String? {
        withValue(field) { bytes in bytes.map { String(decoding: $0, as: UTF8.self) } }
    }

    /// Replaces the values with the referrer's attribution fields (the first occurrence of each,
    /// decoded once), keeping ``clickTimestampSeconds``.
    ///
    /// - Complexity: O(n) in the referrer's length; no allocation.
    package mutating func assign(from parsed: ParsedReferrer) {
        _assign(parsed.effectiveFields._attributionScan(extraKey: nil))
    }

    /// ``assign(from:)`` from the fields one pass found, each value decoded straight into place.
    internal mutating func _assign(_ scan: borrowing _AttributionScan) {
        _present = 0
        isTruncated = false
        var end = 0
        // A count, not `allCases.count`: `allCases` builds an array on every call.
        for index in 0..<Self._fieldCount {
            if let raw = scan.value(index) {
                let start = end
                var span = _bytes.mutableSpan
                let written = span.withUnsafeMutableBytes { all in
                    FormDecoding.decode(raw, into: UnsafeMutableRawBufferPointer(rebasing: all[start...]))
                }
                if let written {
                    end &+= written
                    _present |= 1 << index
                } else {
                    // It did not fit: left out whole (what it wrote past `end` is never read).
                    isTruncated = true
                }
            }
            _ends[index] = UInt8(truncatingIfNeeded: end)
        }
    }

    /// Sets field number `index` (fields must be appended in order) to `value`, or leaves it out
    /// and marks the attribution truncated when it does not fit.
    package mutating func append(_ value: UnsafeRawBufferPointer, as index: Int) {
        let start = index == 0 ? 0 : Int(_ends[index - 1])
        guard value.count <= Self.capacity - start else {
            _ends[index] = UInt8(start)
            isTruncated = true
            return
        }
        var span = _bytes.mutableSpan
        span.withUnsafeMutableBytes { destination in
            for offset in 0..<value.count { destination[start + offset] = value[offset] }
        }
        _ends[index] = UInt8(start + value.count)
        _present |= 1 << index
    }

    /// Marks field number `index` absent (fields must be set in order).
    package mutating func skip(_ index: Int) {
        _ends[index] = index == 0 ? 0 : _ends[index - 1]
    }

    /// Sets ``isTruncated`` as a stored record says.
    package mutating func markTruncated() { isTruncated = true }
}

extension LinkAttribution.Field {
    /// The field's position in `allCases`: its slot in a ``LinkAttribution``.
    @usableFromInline
    var _index: Int {
        switch self {
        case .utmSource: 0
        case .utmMedium: 1
        case .utmCampaign: 2
        case .utmTerm: 3
        case .utmContent: 4
        case .gclid: 5
        }
    }

    init(_index index: Int) {
        switch index {
        case 0: self = .utmSource
        case 1: self = .utmMedium
        case 2: self = .utmCampaign
        case 3: self = .utmTerm
        case 4: self = .utmContent
        default: self = .gclid
        }
    }
}
