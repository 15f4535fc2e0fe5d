import DeepLinkCore

/// One HMAC-SHA256 key of a link-signing key set: its id (written into every link it signs as
/// `dl_kid`) and its secret.
///
/// Thread safety: a value type; `Sendable`.
public struct SigningKey: Sendable, Hashable {
    /// The shortest secret accepted, in bytes: the HMAC-SHA256 output size (RFC 2104 advises no less).
    public static let minimumSecretBytes = 32

    /// The key id (``LinkSignature/isValidKeyID(_:)``).
    public let id: String
    /// The secret, at least ``minimumSecretBytes`` bytes.
    public let secret: [UInt8]

    /// - Throws: ``SigningKeyError/invalidKeyID(_:)`` or ``SigningKeyError/secretTooShort(keyID:bytes:)``.
    public init(id: String, secret: [UInt8]) throws(SigningKeyError) {
        guard LinkSignature.isValidKeyID(id) else { throw .invalidKeyID(id) }
        guard secret.count >= Self.minimumSecretBytes else { throw .secretTooShort(keyID: id, bytes: secret.count) }
        self.id = id
        self.secret = secret
    }
}
