package import DeepLinkCore

/// Why a payload must not be routed: one of the core's ``LinkRejection``s (which rejections exist
/// is written once, there), or one of the two ways a referrer is refused before it holds a link.
/// The oracle names these cases; it never asks the core to validate.
///
/// Raw values number ``allCases``: the core's rejections in their order, then the referrer's.
package enum RejectionReason: Sendable, Hashable, CaseNamed {
    /// The link itself was refused, by the validator or the signature check.
    case link(LinkRejection)
    /// The referrer itself could not be parsed (over a limit).
    case malformedReferrer
    /// The referrer names the payload key more than once.
    case duplicatePayloadKey

    package static let allCases: [RejectionReason] =
        LinkRejection.allCases.map(RejectionReason.link) + [.malformedReferrer, .duplicatePayloadKey]

    /// A rejection's name is the core's; a referrer's is its case's.
    package static let names = allCases.map { reason in
        if case .link(let rejection) = reason { return rejection.name }
        return String(describing: reason)
    }

    /// Each core rejection's raw value. Keyed by the core's type: as a `RawRepresentable`, this
    /// type hashes and compares through ``rawValue``, so it cannot key the table itself.
    private static let linkRawValues = Dictionary(
        uniqueKeysWithValues: LinkRejection.allCases.enumerated().map { index, rejection in (rejection, UInt8(index)) }
    )

    /// A referrer the parser refused: an ambiguous payload key has its own reason, a limit is a
    /// malformed referrer.
    package init(_ error: ReferrerError) {
        switch error {
        case .duplicatePayloadKey: self = .duplicatePayloadKey
        case .inputTooLong, .tooManyFields: self = .malformedReferrer
        }
    }

    package init?(rawValue: UInt8) {
        guard Int(rawValue) < Self.allCases.count else { return nil }
        self = Self.allCases[Int(rawValue)]
    }

    package var rawValue: UInt8 {
        switch self {
        case .link(let rejection): Self.linkRawValues[rejection] ?? 0
        case .malformedReferrer: UInt8(Self.linkRawValues.count)
        case .duplicatePayloadKey: UInt8(Self.linkRawValues.count + 1)
        }
    }
}
