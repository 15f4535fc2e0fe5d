extension LinkAttribution {
    /// The campaign attribution fields a referrer may carry next to the payload.
    ///
    /// Thread safety: a value type; `Sendable`.
    public enum Field: Sendable, Hashable, CaseIterable {
        case utmSource
        case utmMedium
        case utmCampaign
        case utmTerm
        case utmContent
        case gclid

        /// The field's name in a referrer (`utm_source`, …, `gclid`).
        public var key: StaticString {
            switch self {
            case .utmSource: "utm_source"
            case .utmMedium: "utm_medium"
            case .utmCampaign: "utm_campaign"
            case .utmTerm: "utm_term"
            case .utmContent: "utm_content"
            case .gclid: "gclid"
            }
        }
    }
}

/// The placeholders Google Play puts in the install referrer when there is no campaign.
///
/// Thread safety: a value type; `Sendable`.
package enum PlayPlaceholder: Sendable, Hashable {
    /// `utm_source=google-play&utm_medium=organic`: an organic install.
    case organic
    /// `utm_source=(not%20set)&utm_medium=(not%20set)`: Play had no referrer to give.
    case notSet
}
