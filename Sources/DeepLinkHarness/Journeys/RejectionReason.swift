/// Why a payload must not be routed; mirrors SPEC 3.2's reasons, declared here so that the
/// oracle does not depend on DeepLinkCore.
package enum RejectionReason: UInt8, Sendable, Hashable, CaseNamed {
    case empty
    case tooLong
    case notAPath
    case schemeRelative
    case foreignHost
    case disallowedScheme
    case controlCharacter
    case invalidUTF8
    case dotSegment
    case backslash
    case unknownRoute
    /// The referrer itself could not be parsed (over a limit).
    case malformedReferrer
    /// A `%` without two hex digits.
    case malformedPercentEscape
    /// A bidirectional control or invisible character, raw or encoded.
    case invisibleCharacter
    /// `%2F`, `%3F`, `%23` or `%3B` in the path.
    case encodedDelimiter
    /// The referrer names the payload key more than once.
    case duplicatePayloadKey
    /// The link names an account that is not a valid account id.
    case invalidAccount
    /// A link under a signing prefix without a signature.
    case missingSignature
    /// A malformed signature, or a tag that does not match the link.
    case badSignature
    /// A signature by a key the app does not know.
    case unknownKey
    /// A valid signature past its expiry.
    case expiredSignature
    /// A valid signature whose nonce was used before.
    case replayed

    package static let names = caseNames()
}
