/// The wire format of a signed link: one place for it, read by ``SignedLinkVerifier`` and written by
/// the link builder (`DeepLinkLinks`).
///
/// A signed link is a canonical link (``DeepLink``) whose query *ends* with four fields, in this
/// order:
///
/// ```text
/// /wallet/transfer?to=7&dl_kid=k2&dl_exp=1767225600&dl_nonce=0123456789abcdef&dl_sig=<64 hex digits>
/// ```
///
/// - `dl_kid`: the key id, 1 to ``maxKeyIDBytes`` bytes of `A–Z a–z 0–9 . _ -`;
/// - `dl_exp`: the expiry, Unix seconds, 1 to ``maxExpiryDigits`` decimal digits; the link is
///   refused from that second on (``LinkRejection/expiredSignature``);
/// - `dl_nonce`: ``nonceHexDigits`` lowercase hex digits (64 bits), single-use per install
///   (``LinkRejection/replayed``);
/// - `dl_sig`: the tag, HMAC-SHA256 in ``tagByteCount`` bytes written as 64 lowercase hex digits.
///
/// The tag covers the *message*: every byte of the canonical link before `&dl_sig=`, that is the
/// path, the `?`, the app's own query fields and their `&` (if any), and
/// `dl_kid=…&dl_exp=…&dl_nonce=…`, exactly as they appear (no re-encoding, no sorting). The
/// canonical link is what the validator produces from the decoded payload, so the referrer's form
/// encoding and an `https://host` prefix are not part of it: the same signed link verifies whether it
/// arrives as a Play referrer, an App Clip URL or a universal link.
///
/// Thread safety: stateless.
package enum LinkSignature {
    /// The key-id field's name.
    package static let keyIDField = "dl_kid"
    /// The expiry field's name.
    package static let expiryField = "dl_exp"
    /// The nonce field's name.
    package static let nonceField = "dl_nonce"
    /// The tag field's name.
    package static let tagField = "dl_sig"
    /// The tag's length in bytes (HMAC-SHA256); written as twice as many hex digits.
    package static let tagByteCount = 32
    /// The nonce's length in hex digits (64 bits).
    package static let nonceHexDigits = 16
    /// The longest key id, in bytes.
    package static let maxKeyIDBytes = 32
    /// The longest expiry, in decimal digits (Unix seconds up to the year 2286).
    package static let maxExpiryDigits = 10

    /// Whether `keyID` is a valid key id (non-empty, at most ``maxKeyIDBytes`` bytes of
    /// `A–Z a–z 0–9 . _ -`).
    package static func isValidKeyID(_ keyID: String) -> Bool {
        let bytes = keyID.utf8
        return !bytes.isEmpty && bytes.count <= maxKeyIDBytes && bytes.allSatisfy(_isKeyIDByte)
    }

    /// The fields the tag covers after the link's own path and query:
    /// `dl_kid=<keyID>&dl_exp=<expiry>&dl_nonce=<nonce>` (append it after `?` or `&`, then append
    /// ``tagSuffix(_:)`` of the tag over everything so far).
    ///
    /// - Precondition: `keyID` is valid (``isValidKeyID(_:)``) and `expiresAtSeconds` has at most
    ///   ``maxExpiryDigits`` digits.
    package static func signedFields(keyID: String, expiresAtSeconds: UInt64, nonce: UInt64) -> String {
        precondition(isValidKeyID(keyID), "invalid key id \(keyID)")
        let expiry = String(expiresAtSeconds)
        precondition(expiry.utf8.count <= maxExpiryDigits, "expiry \(expiry) has more than \(maxExpiryDigits) digits")
        return "\(keyIDField)=\(keyID)&\(expiryField)=\(expiry)&\(nonceField)=\(hex(nonce))"
    }

    /// `&dl_sig=<tag as lowercase hex>`, the field that ends a signed link.
    ///
    /// - Precondition: `tag` has ``tagByteCount`` bytes.
    package static func tagSuffix(_ tag: some Collection<UInt8>) -> String {
        precondition(tag.count == tagByteCount, "a tag has \(tagByteCount) bytes, not \(tag.count)")
        return "&\(tagField)="
            + String(decoding: tag.flatMap { [_hexDigits[Int($0 >> 4)], _hexDigits[Int($0 & 15)]] }, as: UTF8.self)
    }

    /// `nonce` as ``nonceHexDigits`` lowercase hex digits.
    package static func hex(_ nonce: UInt64) -> String {
        var digits = [UInt8](repeating: 0, count: nonceHexDigits)
        for index in 0..<nonceHexDigits {
            digits[index] = _hexDigits[Int((nonce >> UInt64(4 * (nonceHexDigits - 1 - index))) & 15)]
        }
        return String(decoding: digits, as: UTF8.self)
    }

    static let _hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    static func _isKeyIDByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default: false
        }
    }
}
