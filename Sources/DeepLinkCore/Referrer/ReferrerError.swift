/// Why the parser refused a referrer before its verdict: a limit from
/// ``ReferrerParser/Configuration``, or a payload key named more than once. Each is an answer
/// (``ReferrerVerdict/error(_:)``), never a crash.
///
/// Thread safety: a value type; `Sendable`.
public enum ReferrerError: Error, Sendable, Hashable {
    /// The input has `length` bytes, more than the configured `limit`
    /// (``ReferrerParser/Configuration/maxInputBytes``).
    case inputTooLong(length: Int, limit: Int)

    /// The input has `count` non-empty fields, more than the configured `limit`
    /// (``ReferrerParser/Configuration/maxFields``). For a double-encoded referrer the fields are
    /// counted after decoding it once.
    case tooManyFields(count: Int, limit: Int)

    /// The payload key (``ReferrerParser/Configuration/payloadKey``) names `count` (at least two)
    /// effective fields. Which one is meant is ambiguous: `URLSearchParams.get` takes the first, a
    /// dictionary built from the pairs (`dict(parse_qsl(…))`) the last, so a referrer can smuggle a
    /// second link past a check that reads the other one. Refused; nothing is routed.
    case duplicatePayloadKey(count: Int)

    /// The error's stable name, as written in reports and `inspect --jsonl` (`"inputTooLong"`).
    public var name: String {
        switch self {
        case .inputTooLong: "inputTooLong"
        case .tooManyFields: "tooManyFields"
        case .duplicatePayloadKey: "duplicatePayloadKey"
        }
    }
}
