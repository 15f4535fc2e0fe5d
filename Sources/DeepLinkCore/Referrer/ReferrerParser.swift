/// Parses Google Play Install Referrer strings without copying or allocating, and turns them into a
/// ``ReferrerVerdict``.
///
/// A referrer such as `utm_source=google&utm_medium=cpc&deeplink=%2Fproduct%2F42` is read per WHATWG
/// `application/x-www-form-urlencoded`: split on `&`, skip empty pieces, split at the first `=`,
/// `+` is a space, valid `%XX` escapes decode and invalid ones stay literal. Fields are views into
/// the input (`ReferrerFields`, `ReferrerField`); decoding is lazy, into stack scratch space or
/// a buffer the caller supplies.
///
/// On top of the grammar the parser knows what Play sends in the wild:
/// - the payload key (``Configuration/payloadKey``, default `deeplink`) and the attribution fields
///   (``LinkAttribution/Field``);
/// - Play's placeholders, `utm_source=google-play&utm_medium=organic` (``ReferrerVerdict/organic``)
///   and `utm_source=(not%20set)&utm_medium=(not%20set)` (``ReferrerVerdict/notSet``);
/// - double-encoded referrers (no raw `=` or `&`, but `%3D`/`%26` inside), which are decoded once
///   into stack scratch space and parsed again;
/// - bare tokens (`1234567`), which carry no payload.
///
/// Limits (``Configuration/maxInputBytes``, ``Configuration/maxFields``) are checked before anything
/// else and reported as a named ``ReferrerError``. Any byte sequence at all is safe to pass.
///
/// When a referrer carries a payload *and* a placeholder, the payload wins: the placeholders are
/// what Play sends instead of a campaign, not alongside one. When the payload key names more than
/// one effective field, the referrer is refused as ``ReferrerError/duplicatePayloadKey(count:)``
/// (after the limits): readers disagree about which occurrence counts, so no link is taken from it.
/// Other keys may repeat; `ParsedReferrer/field(_:)` reads their first occurrence.
///
/// Thread safety: an immutable value; `Sendable`. One parser may serve any number of threads.
///
/// - Complexity: Every operation is O(n) in the input length (a few passes); none allocates.
public struct ReferrerParser: Sendable {
    /// What the parser looks for and how much input it accepts.
    ///
    /// Thread safety: a value type; `Sendable`.
    public struct Configuration: Sendable, Hashable {
        /// The largest ``maxInputBytes`` the parser supports: the size of its fixed stack scratch
        /// space for double-encoded referrers and decoded values.
        public static let inputBytesCeiling = 8192

        /// The field that carries the deep link (default `deeplink`), compared with decoded names.
        public var payloadKey: String

        /// Inputs longer than this many bytes are refused with ``ReferrerError/inputTooLong(length:limit:)``.
        /// Between 0 and ``inputBytesCeiling`` (values outside are clamped). Default 4,096.
        public var maxInputBytes: Int {
            didSet { maxInputBytes = Self._clampedInputBytes(maxInputBytes) }
        }

        /// Inputs with more non-empty fields than this are refused with
        /// ``ReferrerError/tooManyFields(count:limit:)``. At least 0 (negative values are clamped).
        /// Default 64.
        public var maxFields: Int {
            didSet { maxFields = max(0, maxFields) }
        }

        public init(payloadKey: String = "deeplink", maxInputBytes: Int = 4096, maxFields: Int = 64) {
            self.payloadKey = payloadKey
            self.maxInputBytes = Self._clampedInputBytes(maxInputBytes)
            self.maxFields = max(0, maxFields)
        }

        private static func _clampedInputBytes(_ value: Int) -> Int { min(max(0, value), inputBytesCeiling) }
    }

    /// The configuration this parser applies.
    public var configuration: Configuration { _shared.configuration }

    /// What the parser keeps of its configuration that is not a word, behind one immutable
    /// reference: a copy of the parser (each read copies it into its closures) then retains one
    /// object, not a string and an array.
    @usableFromInline
    internal final class _Shared: Sendable {
        @usableFromInline let configuration: Configuration
        /// The UTF-8 of ``Configuration/payloadKey``, taken once here so that no lookup goes
        /// through `String` per field.
        @usableFromInline let payloadKeyUTF8: [UInt8]

        init(configuration: Configuration) {
            self.configuration = configuration
            self.payloadKeyUTF8 = Array(configuration.payloadKey.utf8)
        }
    }

    @usableFromInline
    internal let _shared: _Shared

    /// ``Configuration/maxInputBytes`` and ``Configuration/maxFields``, checked on every read.
    @usableFromInline
    internal let _maxInputBytes: Int
    @usableFromInline
    internal let _maxFields: Int

    /// Whether the payload key holds no `%`, `+` or `=`: then a name spelled exactly like it is it.
    @usableFromInline
    internal let _payloadKeyIsPlain: Bool

    public init(configuration: Configuration = .init()) {
        let shared = _Shared(configuration: configuration)
        self._shared = shared
        self._maxInputBytes = configuration.maxInputBytes
        self._maxFields = configuration.maxFields
        self._payloadKeyIsPlain = !shared.payloadKeyUTF8.contains { byte in
            byte == UInt8(ascii: "%") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "=")
        }
    }

    /// Checks the limits, undoes double encoding, finds the payload, and lends `body` the result.
    /// Returns `body`'s result, or the limit that `input` broke.
    ///
    /// Everything `body` receives is a view into `input` (or into stack scratch space) and valid
    /// only while `body` runs.
    ///
    /// - Complexity: O(n) in `input.count`; no heap allocation.
    @inlinable
    @inline(__always)  // a call specialized on `body` is passed its captures owned: a retain and a release each
    package func withReferrer<R, E: Error>(
        in input: UnsafeRawBufferPointer,
        _ body: (ParsedReferrer) throws(E) -> R
    ) throws(E) -> Result<R, ReferrerError> {
        guard input.count <= _maxInputBytes else {
            return .failure(.inputTooLong(length: input.count, limit: _maxInputBytes))
        }
        // One pass finds the field count, the payload and whether a raw separator occurs.
        let scan = _scan(input)
        guard scan.fieldCount <= _maxFields else {
            return .failure(.tooManyFields(count: scan.fieldCount, limit: _maxFields))
        }
        // (Two fields need a raw `&`, so a double-encoded input cannot fail this outer check.)
        guard scan.payloadCount <= 1 else { return .failure(.duplicatePayloadKey(count: scan.payloadCount)) }
        // A raw `=` or `&` rules double encoding out without a second pass.
        guard !scan.sawRawSeparator && FormDecoding.isDoubleEncoded(input) else {
            let fields = ReferrerFields(unsafeBytes: input)
            let parsed = ParsedReferrer(
                fields: fields,
                effectiveFields: fields,
                isDoubleEncoded: false,
                fieldCount: scan.fieldCount,
                payload: scan.payload(in: input)
            )
            return .success(try body(parsed))
        }
        return try _withDoubleEncodedReferrer(in: input, body)
    }

    @usableFromInline
    internal func _scan(_ input: UnsafeRawBufferPointer) -> _ReferrerScan {
        _shared.payloadKeyUTF8.withUnsafeBufferPointer { key in
            _scanReferrer(input, key: key, keyIsPlain: _payloadKeyIsPlain)
        }
    }

    /// The rare path: `input` is double-encoded, so it is decoded once into stack scratch space
    /// and the decoded bytes are scanned again.
    @usableFromInline
    internal func _withDoubleEncodedReferrer<R, E: Error>(
        in input: UnsafeRawBufferPointer,
        _ body: (ParsedReferrer) throws(E) -> R
    ) throws(E) -> Result<R, ReferrerError> {
        try _withScratchBytes(capacity: input.count &+ FormDecoding.blockSlack) {
            (scratch: UnsafeMutableRawBufferPointer) throws(E) -> Result<R, ReferrerError> in
            // The scratch holds more than input.count bytes and decoding never grows the bytes.
            let decodedCount = FormDecoding.decode(input, into: scratch) ?? 0
            let decoded = UnsafeRawBufferPointer(rebasing: scratch[0..<decodedCount])
            let inner = _scan(decoded)
            guard inner.fieldCount <= _maxFields else {
                return .failure(.tooManyFields(count: inner.fieldCount, limit: _maxFields))
            }
            guard inner.payloadCount <= 1 else { return .failure(.duplicatePayloadKey(count: inner.payloadCount)) }
            let parsed = ParsedReferrer(
                fields: ReferrerFields(unsafeBytes: input),
                effectiveFields: ReferrerFields(unsafeBytes: decoded),
                isDoubleEncoded: true,
                fieldCount: inner.fieldCount,
                payload: inner.payload(in: decoded)
            )
            return .success(try body(parsed))
        }
    }

    /// Lends `body` the decoded value of the first effective field named `key` (after undoing double
    /// encoding), or `nil` when there is none; or returns the limit `input` broke. The value may be
    /// invalid UTF-8 and is valid only inside `body`.
    ///
    /// - Complexity: O(n) in `input.count`; no heap allocation.
    package func withValue<R, E: Error>(
        forKey key: String,
        in input: UnsafeRawBufferPointer,
        _ body: (UnsafeRawBufferPointer?) throws(E) -> R
    ) throws(E) -> Result<R, ReferrerError> {
        try withReferrer(in: input) { (parsed: ParsedReferrer) throws(E) -> R in
            try parsed.effectiveFields.withValue(forKey: key, body)
        }
    }
}
