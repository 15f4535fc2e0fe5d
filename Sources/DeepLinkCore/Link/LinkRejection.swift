/// Why ``LinkValidator`` refused a payload. A rejected payload is never routed: the app falls back
/// to its home route and the reason is counted.
///
/// When a payload breaks several rules, the validator reports exactly one reason, the first in
/// ``precedence``:
///
/// 1. ``empty``
/// 2. ``invalidUTF8`` — nothing else can be judged in bytes that are not text;
/// 3. ``controlCharacter``, ``invisibleCharacter``, ``backslash``, then ``malformedPercentEscape``
///    — byte content, checked over the whole payload (fragment included), raw and
///    percent-encoded, before its structure is interpreted, because browsers and routers disagree
///    about how these bytes split a URL;
/// 4. the payload's form: ``schemeRelative``, ``disallowedScheme``, ``foreignHost`` or
///    ``notAPath`` (mutually exclusive: each describes what the payload is instead of a link);
/// 5. ``dotSegment``, then ``encodedDelimiter``, in the reduced path;
/// 6. ``tooLong`` — the canonical link (path and query) exceeds ``DeepLink/capacity``;
/// 7. ``unknownRoute`` — a route table is configured and no route matches;
/// 8. ``invalidAccount`` — not the validator's: the link itself is valid, but the account it names
///    is not an ``AccountID`` (checked by ``LinkResolver/captureReferrer(_:parser:validator:capturedAtNanos:id:installBeginTimestamp:clickTimestampSeconds:)``
///    when the app binds links to accounts).
///
/// The signature reasons (``missingSignature``, ``badSignature``, ``unknownKey``,
/// ``expiredSignature``, ``replayed``) come after validation, from a ``SignedLinkVerifier``, and only
/// for links under its prefixes; their order is the verifier's.
///
/// Thread safety: a value type; `Sendable`.
public enum LinkRejection: Error, Sendable, Hashable, CaseIterable {
    /// The payload has no bytes.
    case empty
    /// The canonical link (path and query) is longer than ``DeepLink/capacity`` bytes.
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
    /// A `%` not followed by two hex digits (`50%`, `%4`, `%zz`), anywhere in the payload: routers
    /// disagree about such bytes (one keeps the `%`, one drops it, one fails), so the link has no
    /// single meaning. A literal percent sign is written `%25`.
    case malformedPercentEscape
    /// A Unicode character that renders as nothing or reorders the text around it, raw or
    /// percent-encoded (`%E2%80%AE`): what a person reads in the link is not what the router gets,
    /// and a router that strips it sees another path. Exactly the Default_Ignorable_Code_Point set
    /// (Unicode 15.1), which holds every bidirectional control, plus the interlinear annotation
    /// controls:
    /// U+00AD, U+034F, U+061C, U+115F–U+1160, U+17B4–U+17B5, U+180B–U+180F, U+200B–U+200F (zero
    /// width space, non-joiner, joiner, LRM, RLM), U+202A–U+202E (LRE, RLE, PDF, LRO, RLO),
    /// U+2060–U+206F (word joiner, invisible operators, LRI, RLI, FSI, PDI, deprecated format
    /// controls), U+3164, U+FE00–U+FE0F, U+FEFF, U+FFA0, U+FFF0–U+FFFB, U+1BCA0–U+1BCA3,
    /// U+1D173–U+1D17A and U+E0000–U+E0FFF.
    case invisibleCharacter
    /// An encoded delimiter in the path: `%2F` (`/`), `%3F` (`?`), `%23` (`#`) or `%3B` (`;`). A
    /// router that decodes before it splits reads `/orders%2F42` as `/orders/42` and `/orders%3Fx`
    /// as `/orders`, while the gate sees one segment `orders%2F42`. (In the query they stay
    /// allowed; an encoded backslash anywhere is ``backslash``; `/%2F…` at the start is
    /// ``schemeRelative``.)
    case encodedDelimiter
    /// The link names an account (``LinkResolver/Configuration/referrerAccountKey``) that is not a
    /// valid ``AccountID``: refused rather than routed for anyone.
    case invalidAccount
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
        case .malformedPercentEscape: "malformedPercentEscape"
        case .invisibleCharacter: "invisibleCharacter"
        case .encodedDelimiter: "encodedDelimiter"
        case .invalidAccount: "invalidAccount"
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
        .invisibleCharacter,
        .backslash,
        .malformedPercentEscape,
        .schemeRelative,
        .disallowedScheme,
        .foreignHost,
        .notAPath,
        .dotSegment,
        .encodedDelimiter,
        .tooLong,
        .unknownRoute,
        .invalidAccount,
        .missingSignature,
        .badSignature,
        .unknownKey,
        .expiredSignature,
        .replayed,
    ]
}
