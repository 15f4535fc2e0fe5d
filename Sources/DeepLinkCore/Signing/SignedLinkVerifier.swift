/// Decides whether a validated link may be routed as far as its signature goes: links under the
/// configured prefixes must carry a valid, unexpired, unused signature (`LinkSignature`); every
/// other link passes untouched. Opt-in per route: an app gates `/wallet` this way and leaves
/// `/product` open.
///
/// The cryptography is the ``PayloadAuthenticator``'s; the core only reads the block, checks the
/// expiry and, through the ``HandoffStore``'s consumed marks, the nonce's single use. A signed
/// link's capture id *is* its nonce (the capture calls set it), so the one rule
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
///    the capture calls).
///
/// Thread safety: an immutable value; `Sendable` (its authenticator is required to be thread-safe).
///
/// - Complexity: O(n + p) in the link's length n and the total prefix length p, plus the
///   authenticator's MAC; the verifier itself allocates nothing.
public struct SignedLinkVerifier: Sendable {
    /// The prefixes whose links must be signed (the rule of ``RoutePolicy``'s prefixes).
    public var prefixes: [String] { state.prefixes }
    /// Checks the tags.
    public var authenticator: any PayloadAuthenticator { state.authenticator }

    /// The configuration, immutable, behind one reference: the resolver copies its verifier on
    /// every capture, and a copy then retains one object instead of two arrays and an existential.
    private final class State: Sendable {
        let prefixes: [String]
        let authenticator: any PayloadAuthenticator
        /// The prefixes' UTF-8 bytes, converted once.
        let prefixBytes: [[UInt8]]

        init(prefixes: [String], authenticator: any PayloadAuthenticator) {
            self.prefixes = prefixes
            self.authenticator = authenticator
            self.prefixBytes = prefixes.map { Array($0.utf8) }
        }
    }

    private let state: State

    /// - Throws: ``RoutePolicy/PrefixError/invalidPrefix(_:)`` for a prefix that is not a canonical path
    ///   without a query, ``RoutePolicy/PrefixError/duplicatePrefix(_:)`` for one given twice (the rules of
    ///   ``RoutePolicy``'s prefixes).
    public init(
        requiringSignatureUnder prefixes: [String],
        authenticator: any PayloadAuthenticator
    ) throws(RoutePolicy.PrefixError) {
        var seen: [String] = []
        for prefix in prefixes {
            guard !prefix.utf8.contains(UInt8(ascii: "?")), DeepLink(validated: prefix) != nil else {
                throw .invalidPrefix(prefix)
            }
            guard !seen.contains(prefix) else { throw .duplicatePrefix(prefix) }
            seen.append(prefix)
        }
        self.state = State(prefixes: prefixes, authenticator: authenticator)
    }

    /// Whether `link` lies under one of ``prefixes``.
    public func requiresSignature(_ link: DeepLink) -> Bool {
        let pathCount = link.pathUTF8Count
        return link.withUTF8Bytes { bytes in
            requiresSignature(path: UnsafeRawBufferPointer(rebasing: bytes[0..<pathCount]))
        }
    }

    /// Whether the path bytes `path` lie under one of ``prefixes`` (the rule of
    /// ``DeepLink/hasPathPrefix(bytes:)``): the link is borrowed once for all prefixes, where a call
    /// per prefix copied it.
    private func requiresSignature(path: UnsafeRawBufferPointer) -> Bool {
        // By index, not `for prefix in`: unoptimised, that loop allocated on every call
        // (SignedLinkTests.verificationAddsNoAllocation).
        for index in state.prefixBytes.indices {
            let under = state.prefixBytes[index].withUnsafeBytes { prefix in
                PathPrefix.path(path, impliedLeadingSlash: false, isUnder: prefix)
            }
            if under { return true }
        }
        return false
    }

    /// Checks steps 1 to 5 (no store: a used nonce is not detected here).
    ///
    /// - Parameter nowSeconds: the current Unix time, seconds.
    package func check(_ link: DeepLink, nowSeconds: UInt64) -> SignatureCheck {
        let pathCount = link.pathUTF8Count
        return link.withUTF8Bytes { bytes in check(bytes, pathCount: pathCount, nowSeconds: nowSeconds) }
    }

    /// ``check(_:nowSeconds:)`` of a link's UTF-8 bytes (its path the first `pathCount`): callers
    /// borrow the link in place rather than pass a copy of it.
    private func check(_ bytes: UnsafeRawBufferPointer, pathCount: Int, nowSeconds: UInt64) -> SignatureCheck {
        guard requiresSignature(path: UnsafeRawBufferPointer(rebasing: bytes[0..<pathCount])) else {
            return .notRequired
        }
        switch LinkSignature._parse(bytes, pathCount: pathCount) {
        case .missing: return .rejected(.missingSignature)
        case .malformed: return .rejected(.badSignature)
        case .block(let block):
            let authenticity = withUnsafeTemporaryAllocation(
                byteCount: LinkSignature.tagByteCount,
                alignment: 1
            ) { tag -> PayloadAuthenticity in
                // Eight digits (four bytes) at a time: the parse checked that all are lowercase hex.
                for index in 0..<LinkSignature.tagByteCount / 4 {
                    let value = LinkSignature._hexWordValue(bytes, at: block.tagStart + 8 * index)
                    tag.storeBytes(of: value.bigEndian, toByteOffset: 4 * index, as: UInt32.self)
                }
                return state.authenticator.authenticity(
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
    package func authenticate(
        _ pending: inout PendingLink,
        store: any HandoffStore,
        nowSeconds: UInt64
    ) -> LinkRejection? {
        let nonce: UInt64
        let pathCount = pending.link.pathUTF8Count
        let count = pending.link.utf8Count
        // The bytes borrowed in place, from the record's own storage: `pending.link.withUTF8Bytes`
        // gets the 512-byte link by value and copies it first.
        let checked = pending.link._storage.span.withUnsafeBytes { all in
            check(UnsafeRawBufferPointer(rebasing: all[0..<count]), pathCount: pathCount, nowSeconds: nowSeconds)
        }
        switch checked {
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
        return store.wasConsumed(CaptureIdentity(id: nonce, installBeginTimestamp: 0)) ? .replayed : nil
    }
}
