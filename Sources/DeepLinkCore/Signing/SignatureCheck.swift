/// What ``SignedLinkVerifier/check(_:nowSeconds:)`` found.
///
/// Thread safety: a value type; `Sendable`.
package enum SignatureCheck: Sendable, Hashable {
    /// The link is under no signing prefix: nothing to check.
    case notRequired
    /// The signature is valid and unexpired; `nonce` is the link's single-use nonce.
    case verified(nonce: UInt64)
    /// The link must not be routed.
    case rejected(LinkRejection)
}
