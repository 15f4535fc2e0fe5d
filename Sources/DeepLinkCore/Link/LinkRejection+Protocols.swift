extension LinkRejection: CustomStringConvertible {
    /// The name, what it means and what to do, e.g. `"dotSegment: a . or .. path segment …"`: for
    /// logs and `inspect`; counters and JSON use ``name``.
    public var description: String { name + ": " + explanation }

    /// What the rejected payload held and how to write the link instead.
    private var explanation: String {
        switch self {
        case .empty: "the payload is empty; send a path such as /product/42"
        case .tooLong: "the canonical link is over \(DeepLink.capacity) bytes; shorten the path and query"
        case .notAPath: "neither a path starting with / nor a URL with a scheme; send /product/42"
        case .schemeRelative: "starts with // (or /%2F), which a router reads as another host; send one leading /"
        case .foreignHost: "an https URL whose host is not allowed (or with userinfo or a port); use an allowed host"
        case .disallowedScheme: "a scheme that is neither https nor one of the app's custom schemes"
        case .controlCharacter: "a control character, raw or percent-encoded; remove it"
        case .invalidUTF8: "not strict UTF-8; send UTF-8 text, percent-encoding bytes that are not"
        case .dotSegment: "a . or .. path segment (raw or as %2E); send the resolved path"
        case .backslash: "a backslash, raw or as %5C, which some browsers read as /; remove it"
        case .unknownRoute: "the path matches none of the configured routes"
        case .malformedPercentEscape: "a % not followed by two hex digits; write a literal % as %25"
        case .invisibleCharacter:
            "a bidirectional control or invisible character (U+200B, U+202E, U+FEFF, …), raw or encoded; remove it"
        case .encodedDelimiter:
            "an encoded /, ?, # or ; (%2F, %3F, %23, %3B) in the path, which a router may decode into a delimiter; "
                + "write the delimiter itself or keep such values in the query"
        case .invalidAccount:
            "the link names an account that is not an account id (1-64 of A-Z a-z 0-9 - . _ ~ @ + :); "
                + "send the account's id"
        case .missingSignature:
            "the link lies under a prefix that requires a signature and carries none; mint it signed"
        case .badSignature:
            "the signature block is malformed or its tag does not match the link (tampered, or another key)"
        case .unknownKey: "the signature names a key id the app does not know (never issued, or retired)"
        case .expiredSignature: "the signature has expired (dl_exp has passed); mint a fresh link"
        case .replayed: "the signed link's nonce was used before on this install; a signed link opens once"
        }
    }
}
