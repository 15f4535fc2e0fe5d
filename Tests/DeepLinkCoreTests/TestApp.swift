import DeepLinkCore

/// The configuration the core's tests state, as an app would: the article's example hosts and a
/// policy where `/orders/` and `/account/` need a login. The core itself has no defaults.
enum TestApp {
    static let hosts = ["nerdy.pro", "www.nerdy.pro"]

    static let validator = LinkValidator(configuration: .init(allowedHosts: hosts))

    static let policy: RoutePolicy = {
        do {
            return try RoutePolicy(rules: [
                (prefix: "/orders/", requires: .loggedIn),
                (prefix: "/account/", requires: .loggedIn),
                (prefix: "/product/", requires: []),
            ])
        } catch {
            preconditionFailure("the test policy's prefixes are valid: \(error)")
        }
    }()

    /// A resolver configuration with the test policy and otherwise the defaults.
    static let configuration = LinkResolver.Configuration(policy: policy)
}
