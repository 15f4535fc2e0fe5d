import DeepLinkCore
import DeepLinkLinks

/// The catalog entries of the forged class (``Perturbation/forged``), made once with the link
/// builder and ``ExampleApp/signingKeys``: the genuine signed link to `/wallet/transfer?to=7` and
/// four forgeries of it. Their verdicts are stated by hand from how each was made (the oracle never
/// runs the core's verifier):
///
/// - `signedWallet`: signed with the active key, expiring in 2100: routes (after login);
/// - `forgedUnsigned`: `/wallet/transfer?to=666` with no signature: `missingSignature`;
/// - `forgedTampered`: the genuine link with `to=7` changed to `to=9`: `badSignature`;
/// - `forgedExpired`: signed with the active key but `dl_exp=0`: `expiredSignature`;
/// - `forgedUnknownKey`: signed with a key `k9` the app does not have: `unknownKey`.
///
/// Thread safety: immutable static data; `Sendable`.
enum ForgedLinks {
    /// The genuine link's canonical form (what the router receives).
    static let signedWallet: String = sign(
        "/wallet/transfer?to=7",
        expires: 4_102_444_800,
        nonce: 0x5EED_0000_0000_0013
    )

    static let entries: [LinkCatalog.Entry] = [
        entry(
            "signedWallet",
            signedWallet,
            verdict: .route(canonical: signedWallet, needsLogin: true),
            singleUse: true
        ),
        entry("forgedUnsigned", "/wallet/transfer?to=666", verdict: .reject(.link(.missingSignature))),
        entry(
            "forgedTampered",
            signedWallet.replacingOccurrences(of: "to=7&", with: "to=9&"),
            verdict: .reject(.link(.badSignature))
        ),
        entry(
            "forgedExpired",
            sign("/wallet/transfer?to=7", expires: 0, nonce: 0x5EED_0000_0000_0020),
            verdict: .reject(.link(.expiredSignature))
        ),
        entry(
            "forgedUnknownKey",
            sign("/wallet/transfer?to=7", expires: 4_102_444_800, nonce: 0x5EED_0000_0000_0021, by: strangerKeys),
            verdict: .reject(.link(.unknownKey))
        ),
    ]

    /// A key set the example app does not know.
    static let strangerKeys: HMACSHA256Authenticator = {
        do {
            return try HMACSHA256Authenticator(
                keys: [SigningKey(id: "k9", secret: Array(repeating: 0x39, count: SigningKey.minimumSecretBytes))],
                activeKeyID: "k9"
            )
        } catch {
            preconditionFailure("the stranger's key is valid: \(error)")
        }
    }()

    static let builder = LinkBuilder(validator: ExampleApp.validator)

    static func sign(
        _ path: String,
        expires: UInt64,
        nonce: UInt64,
        by keys: HMACSHA256Authenticator = ExampleApp.signingKeys
    ) -> String {
        do {
            let link = try builder.canonicalLink(path)
            return try builder.signed(link, authenticator: keys, expiresAtSeconds: expires, nonce: nonce).string
        } catch {
            preconditionFailure("the forged class's links are valid: \(error)")
        }
    }

    /// An entry whose referrer, App Clip URL and universal link all carry `link`.
    static func entry(
        _ name: String,
        _ link: String,
        verdict: LinkCatalog.Verdict,
        singleUse: Bool = false
    )
        -> LinkCatalog.Entry
    {
        do {
            let canonical = try builder.canonicalLink(link)
            return LinkCatalog.Entry(
                name: name,
                referrer: try builder.referrer(for: canonical),
                url: try builder.universalLink(host: LinkCatalog.host, link: canonical),
                verdict: verdict,
                naiveFindsPayload: true,
                singleUse: singleUse
            )
        } catch {
            preconditionFailure("the forged class's links are valid: \(error)")
        }
    }
}
