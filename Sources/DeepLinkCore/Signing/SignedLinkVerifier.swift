/// Decides whether a validated link may be routed as far as its signature goes: links under the
/// configured prefixes must carry a valid, unexpired, unused signature (``LinkSignature``); every
/// other link passes untouched. Opt-in per route: an app gates `/wallet` this way and leaves
/// `/product` open.
///
/// The cryptography is the ``PayloadAuthenticator``'s; the core only reads the block, checks the
/// expiry and, through the ``HandoffStore``'s consumed marks, the nonce's single use. A signed
/// link's capture id *is* its nonce (``authenticate(_:store:nowSeconds:)`` sets it), so the one rule
/// of ``CaptureIdentity`` (the same id is the same capture) also makes a nonce single-use, and the
/// store's consumed marks keep it used across relaunches.
///
/// Checks, in order (the first that fails names the rejection):
/// 1. ``LinkRejection/missingSignature``: the link's query has no `dl_sig` field;
/// 2. ``LinkRejection/badSignature``: the block is malformed (fields out of order, wrong lengths,
///    not lowercase hex);
/// 3. ``LinkRejection/unknownKey``: the authenticator knows no key with this id;
/// 4. ``LinkRejection/badSignature``: the tag is not the key's tag of the message;
/// 5. ``LinkRejection/expiredSignature``: now (Unix seconds) is at or past `dl_exp`;
/// 6. ``LinkRejection/replayed``: the store has consumed this nonce before (only in
///    ``authenticate(_:store:nowSeconds:)``).
///
/// Thread safety: an immutable value; `Sendable` (its authenticator is required to be thread-safe).
///
/// - Complexity: O(n + p) in the link's length n and the total prefix length p, plus the
///   authenticator's MAC; the verifier itself allocates nothing.
public struct SignedLinkVerifier: Sendable {
    /// The prefixes whose links must be signed (the rule of ``RoutePolicy``'s prefixes).
    public let prefixes: [String]
    /// Checks the tags.
    public let authenticator: any PayloadAuthenticator

    /// The prefixes' UTF-8 bytes, converted once.
    private let prefixBytes: [[UInt8]]

    /// - Throws: ``RoutePolicyError/invalidPrefix(_:)`` for a prefix that is not a canonical path
    ///   without a query, ``RoutePolicyError/duplicatePrefix(_:)`` for one given twice (the rules of
    ///   ``RoutePolicy``'s prefixes).
    public init(
        requiringSignatureUnder prefixes: [String],
        authenticator: any PayloadAuthenticator
    ) throws(RoutePolicyError) {
        var seen: [String] = []
        for prefix in prefixes {
            guard !prefix.utf8.contains(UInt8(ascii: "?")), DeepLink(validated: prefix) != nil else {
                throw .invalidPrefix(prefix)
            }
            guard !seen.contains(prefix) else { throw .duplicatePrefix(prefix) }
            seen.append(prefix)
        }
        self.prefixes = prefixes
        self.authenticator = authenticator
        self.prefixBytes = prefixes.map { Array($0.utf8) }
    }

    /// Whether `link` lies under one of ``prefixes``.
    public func requiresSignature(_ link: DeepLink) -> Bool {
        for index in prefixBytes.indices {
            let under = prefixBytes[index].withUnsafeBytes { prefix in link.hasPathPrefix(bytes: prefix) }
            if under { return true }
        }
        return false
    }

    /// Checks steps 1 to 5 (no store: a used nonce is not detected here).
    ///
    /// - Parameter nowSeconds: the current Unix time, seconds.
    public func check(_ link: DeepLink, nowSeconds: UInt64) -> SignatureCheck {
        guard requiresSignature(link) else { return .notRequired }
        let pathCount = link.pathUTF8Count
        return link.withUTF8Bytes { bytes -> SignatureCheck in
            switch LinkSignature._parse(bytes, pathCount: pathCount) {
            case .missing: return .rejected(.missingSignature)
            case .malformed: return .rejected(.badSignature)
            case .block(let block):
                let authenticity = withUnsafeTemporaryAllocation(
                    byteCount: LinkSignature.tagByteCount,
                    alignment: 1
                ) { tag -> PayloadAuthenticity in
                    for index in 0..<LinkSignature.tagByteCount {
                        let high = LinkSignature._hexValue(bytes[block.tagStart + 2 * index])
                        let low = LinkSignature._hexValue(bytes[block.tagStart + 2 * index + 1])
                        tag[index] = high << 4 | low
                    }
                    return authenticator.authenticity(
                        ofTag: UnsafeRawBufferPointer(tag),
                        message: UnsafeRawBufferPointer(rebasing: bytes[0..<block.messageEnd]),
                        keyID: UnsafeRawBufferPointer(rebasing: bytes[block.keyID])
                    )
                }
                switch authenticity {
                case .unknownKey: return .rejected(.unknownKey)
                case .forged: return .rejected(.badSignature)
                case .authentic: break
                }
                guard nowSeconds < block.expiresAtSeconds else { return .rejected(.expiredSignature) }
                return .verified(nonce: block.nonce)
            }
        }
    }

    /// Checks every step for a link about to be captured and, for a verified signed link, sets its
    /// capture id to the nonce. Returns the rejection, or `nil` when `pending` may be captured.
    ///
    /// A referrer Play delivers again to the same install (its install-begin timestamp is already
    /// consumed) is not a replay: it passes, and the resolver drops it as a duplicate.
    ///
    /// - Parameters:
    ///   - pending: the validated link, as it will be captured.
    ///   - store: the handoff store whose consumed marks remember used nonces.
    ///   - nowSeconds: the current Unix time, seconds.
    public func authenticate(
        _ pending: inout PendingLink,
        store: any HandoffStore,
        nowSeconds: UInt64
    ) -> LinkRejection? {
        let nonce: UInt64
        switch check(pending.link, nowSeconds: nowSeconds) {
        case .notRequired: return nil
        case .rejected(let rejection): return rejection
        case .verified(let verified): nonce = verified
        }
        let redelivery =
            pending.source == .installReferrer && pending.installBeginTimestamp != 0
            && store.wasConsumed(pending.identity)
        pending.id = nonce
        guard !redelivery else { return nil }
        // The nonce alone, whatever the source: an identity without an install-begin timestamp.
        var probe = pending
        probe.source = .universalLink
        return store.wasConsumed(probe.identity) ? .replayed : nil
    }
}
