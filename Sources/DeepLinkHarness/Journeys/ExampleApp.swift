public import DeepLinkCore

/// The app the journeys simulate, configured the way an app team configures DeepLinkCore: its
/// own web hosts (the spec's example, ``LinkCatalog/host`` and its `www.` twin), no custom scheme,
/// no App Clip default link, any path, and a route policy where `/orders` and `/account` need a
/// login and everything else only `appReady`, and invites bound to an account by the referrer's
/// `account` field (``referrerAccountKey``). The core ships no configuration of its own.
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
}
