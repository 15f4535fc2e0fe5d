/// What a referrer means for the app: a validated link to open (written into the caller's
/// ``DeepLink`` or ``PendingLink``, in place: no ~512-byte link travels back in the verdict), one of
/// Play's placeholders, no payload at all, a payload the validator rejected (with its reason), or
/// input the parser refused (with its limit).
///
/// Thread safety: a value type; `Sendable`.
public enum ReferrerVerdict: Sendable, Equatable {
    /// The payload decoded and validated into the caller's link: route to it.
    case link
    /// Play's `utm_source=google-play&utm_medium=organic`: an organic install, no campaign.
    case organic
    /// Play's `utm_source=(not%20set)&utm_medium=(not%20set)`: no referrer was available.
    case notSet
    /// A referrer without the payload key (including bare tokens such as `1234567`).
    case noPayload
    /// The payload was present but the validator rejected it; the app falls back to its home route.
    case rejected(LinkRejection)
    /// The parser refused the input (a configured limit).
    case error(ReferrerError)

    /// The verdict's stable name: `link`, `organic`, `notSet`, `noPayload`, `rejected` or `error`.
    public var name: String {
        switch self {
        case .link: "link"
        case .organic: "organic"
        case .notSet: "notSet"
        case .noPayload: "noPayload"
        case .rejected: "rejected"
        case .error: "error"
        }
    }

    /// The rejection or error name (`dotSegment`, `inputTooLong`, …), or `nil` for other verdicts.
    public var reason: String? {
        switch self {
        case .rejected(let rejection): rejection.name
        case .error(let error): error.name
        case .link, .organic, .notSet, .noPayload: nil
        }
    }
}
