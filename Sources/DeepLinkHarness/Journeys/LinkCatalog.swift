/// The links journeys tap: realistic destinations, hostile and malformed payloads, and the
/// referrers Play hands over without a tap (organic, not set, bare token). Each entry says by hand
/// what a correct implementation must do with it (``Verdict``), independently of DeepLinkCore's
/// parser and validator; that is what the ``Oracle`` and the non-core strategies rely on.
///
/// Thread safety: immutable static data; `Sendable`.
package enum LinkCatalog {
    /// One catalog entry.
    package struct Entry: Sendable {
        /// A short name for traces (`product`, `javascript`, …).
        package var name: String
        /// The full Install Referrer string Play returns for a tap on this link.
        package var referrer: String
        /// The URL an App Clip or universal link hands the app for this link.
        package var url: String
        /// What a correct implementation must do with it.
        package var verdict: Verdict
        /// Whether a naive `deeplink=` lookup (no double decoding, no validation) finds a payload.
        package var naiveFindsPayload: Bool
        /// The account (an index into ``LinkCatalog/accounts``) the link is bound to, named by its
        /// referrer's `account` field; `nil` for a link meant for anyone. A bound link routes only
        /// while that account is logged in.
        package var account: UInt8? = nil
        /// A signed link: its nonce is single-use, so opening it again once routed is a replay.
        package var singleUse = false
    }

    /// What must happen to a payload.
    package enum Verdict: Sendable, Hashable {
        /// Route to this canonical link; `needsLogin` per the route policy (`/orders` and below).
        case route(canonical: String, needsLogin: Bool)
        /// Reject with this reason; route nowhere.
        case reject(RejectionReason)
        /// Play's organic-install placeholder.
        case organic
        /// Play's `(not set)` placeholder.
        case notSet
        /// A referrer without any payload.
        case noPayload

        package var needsLogin: Bool {
            if case .route(_, let needsLogin) = self { return needsLogin }
            return false
        }

        package var isRoutable: Bool {
            if case .route = self { return true }
            return false
        }
    }

    /// The host App Clip and universal-link URLs use (the validator's allowlist).
    package static let host = "nerdy.pro"

    /// Ids of entries routed without login.
    package static let openLinks: [UInt8] = [0, 1, 2, 3]
    /// Ids of entries that need `loggedIn` (`/orders` and below).
    package static let loginLinks: [UInt8] = [4, 5]
    /// Ids of every entry that routes (open and login links).
    package static let routableLinks: [UInt8] = [0, 1, 2, 3, 4, 5]
    /// Ids of hostile or malformed payloads, as referrers (Android).
    package static let hostileLinks: [UInt8] = [6, 7, 8, 9, 10, 11, 12, 13, 14]
    /// Ids of hostile payloads that can arrive as a URL (App Clip, universal link): a URL is
    /// ASCII with percent escapes, so the invalid-UTF-8 referrer has no URL form.
    package static let hostileURLLinks: [UInt8] = [6, 7, 8, 9, 10, 11, 12, 14]
    package static let organic: UInt8 = 15
    package static let notSet: UInt8 = 16
    package static let bareToken: UInt8 = 17
    /// A double-encoded referrer for `/product/42` (Android).
    package static let doubleEncoded: UInt8 = 18
    /// Ids of gate-bypass links (Android): spellings of the orders screen that a router decoding
    /// and normalising the path opens, while a byte-prefix gate sees another path. Each entry says
    /// by hand what it is: the orders link it stands for (needs login), or a refusal.
    package static let gateBypassLinks: [UInt8] = [19, 20, 21, 22, 23, 24, 25, 26, 27]
    /// Gate-bypass links that can arrive as a URL (the duplicate payload key exists only in a
    /// referrer).
    package static let gateBypassURLLinks: [UInt8] = [19, 20, 21, 22, 23, 24, 25, 26]
    /// Ids of links bound to an account (``Entry/account``), as referrers (Android).
    package static let accountLinks: [UInt8] = [28]

    /// The accounts journeys log in as (a login event's argument indexes this): the user the
    /// bound links are for, and somebody else on the same device.
    package static let accounts = ["alice", "u-1842@example.org"]
    /// The account bound links name.
    package static let linkAccount: UInt8 = 0
    /// Another account.
    package static let otherAccount: UInt8 = 1
    /// The genuine signed link to `/wallet` (``ForgedLinks``; ids 29…33 follow the catalog's own).
    package static let signedLink: UInt8 = 29
    /// Forged payloads to `/wallet`: unsigned, tampered, expired, unknown key (``ForgedLinks``).
    package static let forgedLinks: [UInt8] = [30, 31, 32, 33]

    package static let entries: [Entry] =
        [
            Entry(
                name: "product",
                referrer: "utm_source=google&utm_medium=cpc&deeplink=%2Fproduct%2F42",
                url: "https://nerdy.pro/product/42",
                verdict: .route(canonical: "/product/42", needsLogin: false),
                naiveFindsPayload: true
            ),
            Entry(
                name: "productShare",
                referrer: "deeplink=%2Fproduct%2F7%3Fref%3Dshare&utm_source=share",
                url: "https://nerdy.pro/product/7?ref=share",
                verdict: .route(canonical: "/product/7?ref=share", needsLogin: false),
                naiveFindsPayload: true
            ),
            Entry(
                name: "invite",
                referrer: "utm_campaign=invite&deeplink=%2Finvite%2Fabc123",
                url: "https://nerdy.pro/invite/abc123",
                verdict: .route(canonical: "/invite/abc123", needsLogin: false),
                naiveFindsPayload: true
            ),
            Entry(
                name: "reset",
                referrer: "deeplink=%2Freset%2Ft0k3n&utm_medium=email",
                url: "https://nerdy.pro/reset/t0k3n",
                verdict: .route(canonical: "/reset/t0k3n", needsLogin: false),
                naiveFindsPayload: true
            ),
            Entry(
                name: "orders",
                referrer: "utm_source=email&deeplink=%2Forders%2F42",
                url: "https://nerdy.pro/orders/42",
                verdict: .route(canonical: "/orders/42", needsLogin: true),
                naiveFindsPayload: true
            ),
            Entry(
                name: "ordersRefund",
                referrer: "deeplink=%2Forders%2F9%2Frefund%3Fstep%3D2",
                url: "https://nerdy.pro/orders/9/refund?step=2",
                verdict: .route(canonical: "/orders/9/refund?step=2", needsLogin: true),
                naiveFindsPayload: true
            ),
            Entry(
                name: "openRedirect",
                referrer: "deeplink=https%3A%2F%2Fevil.example%2Flogin",
                url: "https://evil.example/login",
                verdict: .reject(.link(.foreignHost)),
                naiveFindsPayload: true
            ),
            Entry(
                name: "schemeRelative",
                referrer: "deeplink=%2F%2Fevil.example%2Flogin",
                url: "//evil.example/login",
                verdict: .reject(.link(.schemeRelative)),
                naiveFindsPayload: true
            ),
            Entry(
                name: "javascript",
                referrer: "deeplink=javascript%3Aalert(1)",
                url: "javascript:alert(1)",
                verdict: .reject(.link(.disallowedScheme)),
                naiveFindsPayload: true
            ),
            Entry(
                name: "dotSegment",
                referrer: "deeplink=%2Fproduct%2F..%2F..%2Fadmin",
                url: "https://nerdy.pro/product/../../admin",
                verdict: .reject(.link(.dotSegment)),
                naiveFindsPayload: true
            ),
            Entry(
                name: "encodedDotSegment",
                referrer: "deeplink=%2Fproduct%2F%252e%252e%2Fadmin",
                url: "https://nerdy.pro/product/%2e%2e/admin",
                verdict: .reject(.link(.dotSegment)),
                naiveFindsPayload: true
            ),
            Entry(
                name: "controlBytes",
                referrer: "deeplink=%2Fproduct%2F42%0D%0ALocation%3A%20x",
                url: "https://nerdy.pro/product/42%0D%0ALocation:%20x",
                verdict: .reject(.link(.controlCharacter)),
                naiveFindsPayload: true
            ),
            Entry(
                name: "overlong",
                referrer: "deeplink=%2Fproduct%2F" + String(repeating: "a", count: 600),
                url: "https://nerdy.pro/product/" + String(repeating: "a", count: 600),
                verdict: .reject(.link(.tooLong)),
                naiveFindsPayload: true
            ),
            Entry(
                name: "badEscape",
                referrer: "deeplink=%2Fproduct%2F%E2%28%A1",
                url: "",
                verdict: .reject(.link(.invalidUTF8)),
                naiveFindsPayload: true
            ),
            Entry(
                name: "backslash",
                referrer: "deeplink=%2F%5Cevil.example",
                url: "https://nerdy.pro/%5Cevil.example",
                verdict: .reject(.link(.backslash)),
                naiveFindsPayload: true
            ),
            Entry(
                name: "organic",
                referrer: "utm_source=google-play&utm_medium=organic",
                url: "",
                verdict: .organic,
                naiveFindsPayload: false
            ),
            Entry(
                name: "notSet",
                referrer: "utm_source=(not%20set)&utm_medium=(not%20set)",
                url: "",
                verdict: .notSet,
                naiveFindsPayload: false
            ),
            Entry(
                name: "bareToken",
                referrer: "1234567",
                url: "",
                verdict: .noPayload,
                naiveFindsPayload: false
            ),
            Entry(
                name: "doubleEncoded",
                referrer: "deeplink%3D%252Fproduct%252F42%26utm_source%3Dgoogle",
                url: "https://nerdy.pro/product/42",
                verdict: .route(canonical: "/product/42", needsLogin: false),
                naiveFindsPayload: false
            ),
            // Gate bypasses (ids 19…27): what the link is meant to be is stated here, not derived.
            Entry(
                name: "encodedLetter",
                referrer: "deeplink=%2F%256Frders%2F42",
                url: "https://nerdy.pro/%6Frders/42",
                verdict: .route(canonical: "/orders/42", needsLogin: true),
                naiveFindsPayload: true
            ),
            Entry(
                name: "noTrailingSlash",
                referrer: "utm_source=email&deeplink=%2Forders",
                url: "https://nerdy.pro/orders",
                verdict: .route(canonical: "/orders", needsLogin: true),
                naiveFindsPayload: true
            ),
            Entry(
                name: "queryInsteadOfSegment",
                referrer: "deeplink=%2Forders%3Fid%3D42",
                url: "https://nerdy.pro/orders?id=42",
                verdict: .route(canonical: "/orders?id=42", needsLogin: true),
                naiveFindsPayload: true
            ),
            Entry(
                name: "upperCase",
                referrer: "deeplink=%2FOrders%2F42",
                url: "https://nerdy.pro/Orders/42",
                verdict: .route(canonical: "/Orders/42", needsLogin: true),
                naiveFindsPayload: true
            ),
            Entry(
                name: "encodedSlash",
                referrer: "deeplink=%2Forders%252F42",
                url: "https://nerdy.pro/orders%2F42",
                verdict: .reject(.link(.encodedDelimiter)),
                naiveFindsPayload: true
            ),
            Entry(
                name: "bidiOverride",
                referrer: "deeplink=%2Forders%2F42%E2%80%AE",
                url: "https://nerdy.pro/orders/42%E2%80%AE",
                verdict: .reject(.link(.invisibleCharacter)),
                naiveFindsPayload: true
            ),
            Entry(
                name: "zeroWidth",
                referrer: "deeplink=%2For%E2%80%8Bders%2F42",
                url: "https://nerdy.pro/or%E2%80%8Bders/42",
                verdict: .reject(.link(.invisibleCharacter)),
                naiveFindsPayload: true
            ),
            Entry(
                name: "lonePercent",
                referrer: "deeplink=%2Forders%2F42%25",
                url: "https://nerdy.pro/orders/42%",
                verdict: .reject(.link(.malformedPercentEscape)),
                naiveFindsPayload: true
            ),
            Entry(
                name: "duplicateKey",
                referrer: "deeplink=%2Fproduct%2F1&deeplink=%2Forders%2F42",
                url: "",
                verdict: .reject(.duplicatePayloadKey),
                naiveFindsPayload: true
            ),
            // Bound to an account (id 28).
            Entry(
                name: "teamInvite",
                referrer: "utm_campaign=invite&deeplink=%2Finvite%2Fteam-7&account=alice",
                url: "https://nerdy.pro/invite/team-7",
                // An open path, but bound to alice: it needs her login.
                verdict: .route(canonical: "/invite/team-7", needsLogin: true),
                naiveFindsPayload: true,
                account: linkAccount
            ),
        ] + ForgedLinks.entries

    /// The entry with id `id` (ids are indices into ``entries``); ``unknown`` for any other id.
    @inline(__always)
    package static func entry(_ id: UInt8) -> Entry { Int(id) < entries.count ? entries[Int(id)] : unknown }

    /// The id strategies report for a routed link that matches no catalog entry.
    package static let unknownID: UInt8 = 255

    /// Stands for a link that is in no catalog entry (never the right destination).
    package static let unknown = Entry(
        name: "unknown",
        referrer: "",
        url: "",
        verdict: .noPayload,
        naiveFindsPayload: false
    )

    /// The route verdict of entry `id`, or whether two ids route to the same canonical link.
    package static func sameDestination(_ first: UInt8, _ second: UInt8) -> Bool {
        let a = facts(first)
        let b = facts(second)
        guard a.isRoutable, b.isRoutable else { return first == second }
        return a.destination == b.destination
    }
}
