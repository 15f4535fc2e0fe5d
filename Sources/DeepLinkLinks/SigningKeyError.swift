import DeepLinkCore

/// Why a signing key or key file was refused; ``message`` says what was found and what to do.
///
/// Thread safety: a value type; `Sendable`.
public enum SigningKeyError: Error, Sendable, Hashable {
    /// A key id that is empty, longer than ``LinkSignature/maxKeyIDBytes`` or holds other bytes
    /// than `A–Z a–z 0–9 . _ -`.
    case invalidKeyID(String)
    /// A secret shorter than ``SigningKey/minimumSecretBytes``.
    case secretTooShort(keyID: String, bytes: Int)
    /// A secret that is not an even number of hex digits.
    case secretNotHex(keyID: String)
    /// Two keys with the same id.
    case duplicateKeyID(String)
    /// The active key id names no key of the set.
    case unknownActiveKey(String)
    /// A key set without keys.
    case noKeys
    /// The key file could not be read or is not the documented JSON.
    case unreadableKeyFile(path: String, detail: String)
    /// OpenSSL refused to set up HMAC-SHA256 (libcrypto is broken or too old).
    case cryptoUnavailable(String)

    /// The error's stable name (`invalidKeyID`, …).
    public var name: String {
        switch self {
        case .invalidKeyID: "invalidKeyID"
        case .secretTooShort: "secretTooShort"
        case .secretNotHex: "secretNotHex"
        case .duplicateKeyID: "duplicateKeyID"
        case .unknownActiveKey: "unknownActiveKey"
        case .noKeys: "noKeys"
        case .unreadableKeyFile: "unreadableKeyFile"
        case .cryptoUnavailable: "cryptoUnavailable"
        }
    }

    /// One line: what was wrong and what to do.
    public var message: String {
        switch self {
        case .invalidKeyID(let id):
            "invalid key id '\(id)': use 1 to \(LinkSignature.maxKeyIDBytes) characters of A-Z a-z 0-9 . _ -"
        case .secretTooShort(let id, let bytes):
            "key '\(id)' has a \(bytes)-byte secret; use at least \(SigningKey.minimumSecretBytes) random bytes "
                + "(\(2 * SigningKey.minimumSecretBytes) hex digits), e.g. from: openssl rand -hex 32"
        case .secretNotHex(let id):
            "key '\(id)': the secret must be an even number of hex digits (0-9 a-f), e.g. from: openssl rand -hex 32"
        case .duplicateKeyID(let id): "key id '\(id)' appears twice; give every key its own id"
        case .unknownActiveKey(let id): "the active key '\(id)' is not among the keys; name one of them in \"active\""
        case .noKeys: "the key set has no keys; list at least one under \"keys\""
        case .unreadableKeyFile(let path, let detail):
            "cannot use key file '\(path)': \(detail); write {\"active\": \"<id>\", \"keys\": [{\"id\": \"<id>\", "
                + "\"secret\": \"<64 hex digits>\"}]}"
        case .cryptoUnavailable(let detail):
            "OpenSSL's HMAC-SHA256 is unavailable (\(detail)); install libssl-dev (OpenSSL 3)"
        }
    }
}
