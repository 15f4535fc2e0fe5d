import DeepLinkCore
import DeepLinkHarness
import DeepLinkLinks

/// The signature verifier: it never traps on any link, accepts only what was signed (a verified
/// link's tag is the key's HMAC of everything before `&dl_sig=`, recomputed here apart from the
/// verifier's own parsing), and any change to a genuine signed link is refused.
///
/// Input: the first byte picks a mode. Mode 0 checks `/wallet` followed by the rest as it is; mode 1
/// signs `/wallet/` + the rest, then changes one byte (position and value from the input) and checks
/// that the result, if the validator still accepts it, no longer verifies.
enum SignatureFuzzer {
    static let verifier = ExampleApp.signing
    static let builder = LinkBuilder(validator: ExampleApp.validator)

    static func run(_ input: UnsafeRawBufferPointer) {
        var cursor = FuzzInput(input)
        switch cursor.choose(2) {
        case 0:
            let bytes = Array("/wallet".utf8) + cursor.rest()
            guard case .success(let link) = bytes.withUnsafeBytes({ ExampleApp.validator.validate($0) }) else { return }
            checkOnlySignedVerifies(link)
        default:
            let position = Int(cursor.byte())
            let value = cursor.byte()
            let nonce = cursor.uint64()
            guard let suffix = String(validating: cursor.rest(), as: UTF8.self),
                let unsigned = try? builder.canonicalLink("/wallet/" + suffix),
                let signed = try? builder.signed(
                    unsigned,
                    authenticator: ExampleApp.signingKeys,
                    expiresAtSeconds: 4_102_444_800,
                    nonce: nonce
                )
            else { return }
            fuzzCheck(
                verifier.check(signed, nowSeconds: 0) == .verified(nonce: nonce),
                "a genuine link does not verify"
            )
            var bytes = signed.withUTF8Bytes { Array($0) }
            let index = position % bytes.count
            guard bytes[index] != value else { return }
            bytes[index] = value
            guard case .success(let changed) = bytes.withUnsafeBytes({ ExampleApp.validator.validate($0) }),
                changed != signed
            else { return }
            if case .verified = verifier.check(changed, nowSeconds: 0) {
                fuzzCheck(false, "a changed link verifies: \(changed)")
            }
            checkOnlySignedVerifies(changed)
        }
    }

    /// A verified link carries the HMAC of its message under the key it names.
    static func checkOnlySignedVerifies(_ link: DeepLink) {
        guard case .verified = verifier.check(link, nowSeconds: 0) else { return }
        let text = Array(link.string.utf8)
        let marker = Array("&dl_sig=".utf8)
        guard
            let split = (0...(text.count - marker.count)).last(where: { Array(text[$0..<$0 + marker.count]) == marker })
        else { return fuzzCheck(false, "a verified link without &dl_sig=") }
        let message = Array(text[..<split])
        let tag = String(decoding: text[(split + marker.count)...], as: UTF8.self)
        let keyID = ExampleApp.signingKeys.keyIDs.first { id in
            String(decoding: message, as: UTF8.self).contains("dl_kid=\(id)&dl_exp=")
        }
        guard let keyID, let expected = ExampleApp.signingKeys.tag(for: message, keyID: keyID) else {
            return fuzzCheck(false, "a verified link names no known key")
        }
        fuzzCheck(LinkSignature.tagSuffix(expected) == "&dl_sig=" + tag, "a verified link's tag is not the key's HMAC")
    }
}
