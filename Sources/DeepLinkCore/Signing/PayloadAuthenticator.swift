/// Checks the authentication tag of a signed link (see `LinkSignature`): the one piece of
/// cryptography a ``SignedLinkVerifier`` needs, kept behind a protocol so that the core holds none.
/// `DeepLinkLinks.HMACSHA256Authenticator` implements it with OpenSSL's libcrypto (Linux, Android,
/// the CLI); an app on Apple platforms can implement it with CryptoKit's `HMAC<SHA256>`.
///
/// An implementation must compare tags in constant time, know several keys by id (rotation) and
/// answer ``PayloadAuthenticity/unknownKey`` for any other id.
///
/// Thread safety: implementations must be safe to call from any thread at once (the resolver
/// verifies on whichever thread captures).
public protocol PayloadAuthenticator: Sendable {
    /// Whether `tag` (`LinkSignature/tagByteCount` bytes) is the HMAC-SHA256 of `message` under
    /// the key named `keyID` (its UTF-8 bytes, at most `LinkSignature/maxKeyIDBytes`).
    ///
    /// Called on the capture path: it should not allocate.
    func authenticity(
        ofTag tag: UnsafeRawBufferPointer,
        message: UnsafeRawBufferPointer,
        keyID: UnsafeRawBufferPointer
    ) -> PayloadAuthenticity
}
