/// Why ``LinkValidator`` refused a payload. A rejected payload is never routed: the app falls back
/// to its home route and the reason is counted.
///
/// When a payload breaks several rules, the validator reports exactly one reason, the first in
/// ``precedence``:
///
/// 1. ``empty``
/// 2. ``invalidUTF8`` — nothing else can be judged in bytes that are not text;
/// 3. ``controlCharacter``, then ``backslash`` — byte content, checked over the whole payload
///    (fragment included), raw and percent-encoded, before its structure is interpreted, because
///    browsers and routers disagree about how these bytes split a URL;
/// 4. the payload's form: ``schemeRelative``, ``disallowedScheme``, ``foreignHost`` or
///    ``notAPath`` (mutually exclusive: each describes what the payload is instead of a link);
/// 5. ``dotSegment`` in the reduced path;
/// 6. ``tooLong`` — the reduced link (path and query) exceeds ``DeepLink/capacity``;
/// 7. ``unknownRoute`` — a route table is configured and no route matches.
///
/// The signature reasons (``missingSignature``, ``badSignature``, ``unknownKey``,
/// ``expiredSignature``, ``replayed``) come after validation, from a ``SignedLinkVerifier``, and only
/// for links under its prefixes; their order is the verifier's.
///
/// Thread safety: a value type; `Sendable`.
public enum LinkRejection: Error, Sendable, Hashable, CaseIterable {
    /// The payload has no bytes.
    case empty
    /// The reduced link (path and query) is longer than ``DeepLink/capacity`` bytes.
    case tooLong
    /// Neither an app-internal path (starting with `/`) nor a URL with a scheme: `product/42`,
    /// `?x=1`, `#top`, or an `https:` URL without `//`.
    case notAPath
    /// Starts with `//` (raw or as `/%2F`), also after an allowed `https` URL is reduced
    /// (`https://example.com//evil.example`): a browser or router reads it as another host.
    case schemeRelative
    /// An `https` URL whose host is not on the allowlist, or that carries userinfo (`user@host`)
    /// or a port other than 443.
    case foreignHost
    /// A scheme other than `https` and the app's custom schemes: `javascript:`, `intent:`,
    /// `http:`, `data:`, `file:`…
    case disallowedScheme
    /// A C0 control byte (`0x00`–`0x1F`), DEL (`0x7F`) or a C1 control (U+0080–U+009F), raw or
    /// percent-encoded (`%0A`, `%7F`, `%C2%85`).
    case controlCharacter
    /// Not strict UTF-8: overlong forms, surrogates, code points above U+10FFFF, stray or missing
    /// continuation bytes.
    case invalidUTF8
    /// A `.` or `..` path segment, also percent-encoded (`%2e`, `%2E%2e`), separated by `/` or
    /// `%2F`, followed by `;` parameters (`..;x`), or at the end of the path (`/a/..`).
    case dotSegment
    /// A backslash, raw or percent-encoded (`%5C`): some browsers read it as `/`.
    case backslash
    /// A route table is configured and no route prefix matches the path.
    case unknownRoute
    /// The link lies under a prefix that requires a signature (``SignedLinkVerifier``) and its
    /// query has no `dl_sig` field: an unsigned, possibly crafted, payload.
    case missingSignature
    /// The signature block is malformed, or its tag is not the key's tag of the link
    /// (tampered with, or signed with another key).
    case badSignature
    /// The signature names a key id the authenticator does not know (never issued, or retired).
    case unknownKey
    /// The signature is valid but its `dl_exp` second has passed.
    case expiredSignature
    /// The signature is valid but its nonce was consumed before on this install (per the
    /// ``HandoffStore``'s consumed marks, which survive relaunches).
    case replayed

    /// The case name, e.g. `"dotSegment"`: stable, for reports, counters and JSON.
    public var name: String {
        switch self {
        case .empty: "empty"
        case .tooLong: "tooLong"
        case .notAPath: "notAPath"
        case .schemeRelative: "schemeRelative"
        case .foreignHost: "foreignHost"
        case .disallowedScheme: "disallowedScheme"
        case .controlCharacter: "controlCharacter"
        case .invalidUTF8: "invalidUTF8"
        case .dotSegment: "dotSegment"
        case .backslash: "backslash"
        case .unknownRoute: "unknownRoute"
        case .missingSignature: "missingSignature"
        case .badSignature: "badSignature"
        case .unknownKey: "unknownKey"
        case .expiredSignature: "expiredSignature"
        case .replayed: "replayed"
        }
    }

    /// Every reason in the order the validator checks them (see the type's documentation); the
    /// four structural reasons share one step and never apply to the same payload together.
    public static let precedence: [LinkRejection] = [
        .empty,
        .invalidUTF8,
        .controlCharacter,
        .backslash,
        .schemeRelative,
        .disallowedScheme,
        .foreignHost,
        .notAPath,
        .dotSegment,
        .tooLong,
        .unknownRoute,
        .missingSignature,
        .badSignature,
        .unknownKey,
        .expiredSignature,
        .replayed,
    ]
}
