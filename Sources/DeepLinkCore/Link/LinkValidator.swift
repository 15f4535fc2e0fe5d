/// Turns a decoded deep-link payload into a canonical ``DeepLink`` or a named ``LinkRejection``.
///
/// The input is the payload as the referrer parser (or the App Clip handoff) delivers it: already
/// form-decoded exactly once. The validator never decodes it as a whole again; it *looks through*
/// percent-encoding where an encoded byte would be dangerous once a router decodes the path
/// (`%2e%2e`, `%5C`, `%0A`, `%E2%80%AE`, `%2F`), and it writes the link in its canonical form.
///
/// Accepted, as the app's ``Configuration`` states (nothing beyond plain paths by default):
/// - an app-internal path: `/product/42?ref=share`;
/// - an `https` URL whose host is on ``Configuration/allowedHosts`` (ASCII case-insensitive,
///   optional port 443 or an empty port), reduced to its path and query:
///   `https://EXAMPLE.com:443/product/42?ref=share#top` becomes `/product/42?ref=share`, and
///   `https://example.com` or `https://example.com?x=1` become `/` or `/?x=1`;
/// - Apple's default App Clip link, `https://appclip.apple.com/id?p=<clip bundle id>&…`, when
///   ``Configuration/acceptsAppClipDefaultLinks`` is set: reduced like any allowed host, to
///   `/id?p=…`;
/// - a URL with one of ``Configuration/customSchemes`` (`myapp://product/42`): everything after
///   `scheme://` is the path, so it becomes `/product/42` (`myapp:///product/42` too).
///
/// The canonical form is the path plus an optional `?query`; the fragment (`#…`) is dropped, and
/// RFC 3986's percent-encoding normalisation applies to path and query (6.2.2.1–2): an escaped
/// unreserved character (ALPHA / DIGIT / `-` / `.` / `_` / `~`) is decoded (`/%6Frders/42` becomes
/// `/orders/42`, `/file%2Ejson` becomes `/file.json`), and the hex digits of every other escape are
/// uppercased (`%c3%a9` becomes `%C3%A9`). Nothing else changes: reserved characters stay as they
/// are, encoded or not (decoding `%26` in a query would change its meaning), and case is kept —
/// RFC 3986 paths are case-sensitive (`/invite/AbC` is not `/invite/abc`); the policy matcher folds
/// ASCII case instead, see ``RoutePolicy``. Refused instead of normalised: an encoded delimiter in
/// the path (`%2F`, `%3F`, `%23`, `%3B`: ``LinkRejection/encodedDelimiter``), an encoded backslash
/// (``LinkRejection/backslash``), dot segments raw or encoded (``LinkRejection/dotSegment``), a
/// `%` without two hex digits (``LinkRejection/malformedPercentEscape``), and bidirectional or
/// invisible characters (``LinkRejection/invisibleCharacter``). Every accepted link starts with
/// `/` (but not `//`), is strict UTF-8, holds none of these and no control character, and fits in
/// ``DeepLink/capacity`` bytes. When a route table is configured, its path also matches one route.
///
/// Canonicalisation is idempotent, and the validator's output is a fixed point: validating an
/// accepted link's bytes again accepts them unchanged (the fuzz target `canonical` checks it).
///
/// Which reason is reported when several apply is fixed; see ``LinkRejection``.
///
/// ```swift
/// let validator = LinkValidator(
///     configuration: .init(allowedHosts: ["example.com"], routes: ["/product", "/orders"])
/// )
/// validator.validate("/product/42?ref=share")   // .success(/product/42?ref=share)
/// validator.validate("/%2e%2e/admin")            // .failure(.dotSegment)
/// validator.validate("/%6Frders/42")             // .success(/orders/42)
/// validator.validate("/orders%2F42")             // .failure(.encodedDelimiter)
/// ```
///
/// Thread safety: an immutable value; `Sendable`, one validator may be shared by all threads.
///
/// - Complexity: ``validate(_:into:)`` is O(n + h + r) in the payload length n,
///   the total length h of the allowed hosts (only for `https` URLs) and the total length r of the
///   routes, and allocates nothing.
public struct LinkValidator: Sendable {
    /// What the validator accepts beyond plain paths: the app's hosts, its custom schemes, Apple's
    /// default App Clip links and, optionally, its routes. Every part is the app's to state; none
    /// has a default beyond "refuse".
    ///
    /// Thread safety: a value type; `Sendable`.
    public struct Configuration: Sendable, Hashable {
        /// The hosts whose `https` URLs are accepted and reduced to their path, compared ASCII
        /// case-insensitively (write internationalized names in their `xn--` form). Empty: no
        /// `https` URL is accepted, only app-internal paths.
        public var allowedHosts: [String]

        /// URI schemes of the app's own (`myapp`), compared ASCII case-insensitively, whose URLs
        /// are accepted: everything after `scheme://` is the path. Empty by default: a custom
        /// scheme can be claimed by any installed app, so accepting one is the app's decision.
        /// `https` is never a custom scheme (its URLs always go through ``allowedHosts``).
        public var customSchemes: [String]

        /// Whether Apple's default App Clip links (`https://appclip.apple.com/id?p=…`, the link
        /// an App Clip gets when the app has no advanced App Clip experience) are accepted, as if
        /// `appclip.apple.com` were on ``allowedHosts``.
        public var acceptsAppClipDefaultLinks: Bool

        /// Path prefixes the app can route, e.g. `["/product", "/orders"]`; `nil` accepts any
        /// path. A prefix matches the canonical path at a segment boundary: `/product` (or
        /// `/product/`) matches `/product`, `/product/42`, `/product?x=1` and `/Product/42`, not
        /// `/productivity`; escaped unreserved characters compare as themselves and ASCII case is
        /// ignored. The query is not part of the path. The same rule decides ``RoutePolicy``'s
        /// gates.
        public var routes: [String]?

        /// The host of Apple's default App Clip links.
        public static let appClipDefaultHost = "appclip.apple.com"

        public init(
            allowedHosts: [String],
            customSchemes: [String] = [],
            acceptsAppClipDefaultLinks: Bool = false,
            routes: [String]? = nil
        ) {
            self.allowedHosts = allowedHosts
            self.customSchemes = customSchemes
            self.acceptsAppClipDefaultLinks = acceptsAppClipDefaultLinks
            self.routes = routes
        }
    }

    /// The configuration and the tables derived from it, immutable, behind one reference: a
    /// validator is passed by value through the parser and the harness, and a copy then retains
    /// one object instead of six arrays.
    internal final class _Tables: Sendable {
        let configuration: Configuration
        let allowedHosts: [[UInt8]]
        /// The allowed hosts of eight bytes or more as words (as `_word` loads them): each host's whole
        /// words, then its last eight bytes, from `hostWordStarts[i]` on (shorter hosts: none).
        let hostWords: [UInt64]
        let hostWordStarts: [Int]
        let customSchemes: [[UInt8]]
        let routes: [[UInt8]]?

        init(configuration: Configuration) {
            self.configuration = configuration
            var hosts = configuration.allowedHosts
            if configuration.acceptsAppClipDefaultLinks { hosts.append(Configuration.appClipDefaultHost) }
            let allowedHosts = hosts.map { host in host.utf8.map { byte in LinkValidator._asciiLowercased(byte) } }
            var hostWords: [UInt64] = []
            var hostWordStarts: [Int] = []
            for host in allowedHosts {
                hostWordStarts.append(hostWords.count)
                guard host.count >= 8 else { continue }
                host.withUnsafeBytes { bytes in
                    for word in 0..<(host.count / 8) { hostWords.append(_word(bytes.baseAddress!, 8 * word)) }
                    hostWords.append(_word(bytes.baseAddress!, host.count - 8))
                }
            }
            self.allowedHosts = allowedHosts
            self.hostWords = hostWords
            self.hostWordStarts = hostWordStarts
            self.customSchemes = configuration.customSchemes
                .map { scheme in scheme.utf8.map { byte in LinkValidator._asciiLowercased(byte) } }
                .filter { $0 != Array("https".utf8) }
            self.routes = configuration.routes.map { routes in routes.map { Array($0.utf8) } }
        }
    }

    internal let _tables: _Tables

    /// The configuration this validator was created with.
    public var configuration: Configuration { _tables.configuration }

    /// ``Configuration/allowedHosts`` (and the App Clip host, when accepted) as lowercase UTF-8
    /// bytes, so that a check compares bytes without allocating.
    internal var _allowedHosts: [[UInt8]] { _tables.allowedHosts }

    /// ``Configuration/customSchemes`` as lowercase UTF-8 bytes, `https` left out.
    internal var _customSchemes: [[UInt8]] { _tables.customSchemes }

    /// ``Configuration/routes`` as UTF-8 bytes.
    internal var _routes: [[UInt8]]? { _tables.routes }

    /// Creates a validator; host names and routes are converted once, here.
    ///
    /// - Complexity: O(total length of hosts and routes).
    public init(configuration: Configuration) {
        self._tables = _Tables(configuration: configuration)
    }

    /// Validates the decoded payload `decodedPayload` (any bytes) without allocating.
    ///
    /// - Returns: the canonical link, or the first reason in ``LinkRejection/precedence`` that
    ///   applies.
    /// - Complexity: O(n) in the payload length (plus the host and route tables), no allocation.
    package func validate(_ decodedPayload: UnsafeRawBufferPointer) -> Result<DeepLink, LinkRejection> {
        _validate(decodedPayload)
    }

    /// Validates the decoded payload `decodedPayload` (any bytes) and writes the canonical link into
    /// `link`, in place: a ~512-byte link passed back through a `Result` is copied at every step. On
    /// rejection `link` is left unchanged.
    ///
    /// - Returns: `nil` when `link` now holds the canonical link, or the first reason in
    ///   ``LinkRejection/precedence`` that applies.
    /// - Complexity: O(n) in the payload length (plus the host and route tables), no allocation.
    public func validate(_ decodedPayload: UnsafeRawBufferPointer, into link: inout DeepLink) -> LinkRejection? {
        switch _check(decodedPayload) {
        case .success(let reduced):
            link._assign(reduced, of: decodedPayload)
            return nil
        case .failure(let rejection):
            return rejection
        }
    }

    /// Validates a decoded payload given as a `String` (always valid UTF-8, so never
    /// ``LinkRejection/invalidUTF8``). Allocates only if the string is not stored contiguously.
    public func validate(_ payload: String) -> Result<DeepLink, LinkRejection> {
        var contiguous = payload
        return contiguous.withUTF8 { bytes in _validate(UnsafeRawBufferPointer(bytes)) }
    }
}
