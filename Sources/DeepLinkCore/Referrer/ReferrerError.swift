/// Why the parser refused a referrer before looking at its fields. Each case is a limit from
/// ``ReferrerParser/Configuration``; hitting one is an answer (``ReferrerVerdict/error(_:)``), never
/// a crash.
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

    /// The error's stable name, as written in reports and `inspect --jsonl` (`"inputTooLong"`).
    public var name: String {
        switch self {
        case .inputTooLong: "inputTooLong"
        case .tooManyFields: "tooManyFields"
        }
    }
}
