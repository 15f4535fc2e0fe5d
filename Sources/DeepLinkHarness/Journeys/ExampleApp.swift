public import DeepLinkCore
public import DeepLinkLinks

/// The app the journeys simulate, configured the way an app team configures DeepLinkCore: its
/// own web hosts (the spec's example, ``LinkCatalog/host`` and its `www.` twin), no custom scheme,
/// no App Clip default link, any path, a route policy where `/orders`, `/account` and `/wallet` need
/// a login and everything else only `appReady`, signed links required under `/wallet`
/// (``signing``), and invites bound to an account by the referrer's `account` field
/// (``referrerAccountKey``). The core ships no configuration of its own.
///
/// The ``Oracle`` does not read this: it has the catalog's hand-written verdicts
/// (``LinkCatalog/Verdict/needsLogin``), which must agree with ``policy``.
///
/// Thread safety: immutable static values; `Sendable`.
public enum ExampleApp {
    /// The hosts of the example app's universal links and App Clip URLs.
    public static let allowedHosts = [LinkCatalog.host, "www." + LinkCatalog.host]

    /// What the example app's validator accepts.
    public static let validatorConfiguration = LinkValidator.Configuration(allowedHosts: allowedHosts)

    /// The example app's validator.
    public static let validator = LinkValidator(configuration: validatorConfiguration)

    /// `/orders` and `/account` (and everything under them) need `loggedIn`; `/product` and any
    /// other path need only `appReady`.
    public static let policy: RoutePolicy = {
        do {
            return try RoutePolicy(rules: [
                (prefix: "/orders", requires: .loggedIn),
                (prefix: "/account", requires: .loggedIn),
                (prefix: "/wallet", requires: .loggedIn),
                (prefix: "/product", requires: []),
            ])
        } catch {
            preconditionFailure("the example policy's prefixes are valid paths: \(error)")
        }
    }()

    /// The referrer field that binds a link to an account (``LinkResolver/Configuration/referrerAccountKey``).
    public static let referrerAccountKey = "account"

    /// The accounts the journeys log in as, in ``LinkCatalog/accounts`` order.
    public static let accounts: [AccountID] = LinkCatalog.accounts.map { name in
        do {
            return try AccountID(validating: name)
        } catch {
            preconditionFailure("the catalog's account names are valid ids: \(error)")
        }
    }

    /// The login signal of a login or restored-session event whose argument names `account`.
    public static func login(account: UInt8) -> AppEvent {
        .loggedInAs(accounts[Int(account) % accounts.count])
    }

    /// The prefixes whose links must be signed.
    public static let signedPrefixes = ["/wallet"]

    /// The example app's link-signing keys: `k1` (retired, still verifying) and `k2` (active).
    /// Fixed secrets: the harness's links are built once, the same in every run. The journey
    /// protocol's `hello` hands them to programs that verify signatures themselves.
    public static let signingKeyList: [SigningKey] = {
        do {
            return [
                try SigningKey(id: "k1", secret: Array(repeating: 0x4B, count: SigningKey.minimumSecretBytes)),
                try SigningKey(id: "k2", secret: Array(repeating: 0x6D, count: SigningKey.minimumSecretBytes)),
            ]
        } catch {
            preconditionFailure("the example keys are valid: \(error)")
        }
    }()

    /// ``signingKeyList`` as the authenticator the core verifies with (`k2` active).
    public static let signingKeys: HMACSHA256Authenticator = {
        do {
            return try HMACSHA256Authenticator(keys: signingKeyList, activeKeyID: "k2")
        } catch {
            preconditionFailure("the example keys are valid: \(error)")
        }
    }()

    /// Signatures required under ``signedPrefixes``, checked with ``signingKeys``.
    public static let signing: SignedLinkVerifier = {
        do {
            return try SignedLinkVerifier(requiringSignatureUnder: signedPrefixes, authenticator: signingKeys)
        } catch {
            preconditionFailure("the example signing prefixes are valid paths: \(error)")
        }
    }()
}
