internal import CCrypto
public import DeepLinkCore

/// HMAC-SHA256 over OpenSSL's libcrypto (`HMAC_*` over OpenSSL's SHA-256): checks signed
/// links' tags for a ``SignedLinkVerifier`` and makes them for the link builder. Several keys by
/// id (rotation: old keys keep verifying the links they signed), one of them active for minting.
/// Tags are compared with `CRYPTO_memcmp` (constant time).
///
/// Each key keeps one OpenSSL HMAC context, set up with its secret once here and re-initialised
/// (same key) per tag under its own lock. A tag allocates nothing, in libcrypto either
/// (``MACContext``): the digest is OpenSSL's SHA-256 method table, not a provider's, so a
/// FIPS-only provider configuration does not apply to it.
///
/// Thread safety: every member may be called from any thread at once; each key's context is behind
/// its own lock (`Locked`, visible to ThreadSanitizer).
public final class HMACSHA256Authenticator: PayloadAuthenticator {
    /// The ids of the keys, in the order given.
    public let keyIDs: [String]
    /// The key ``tag(for:)`` signs with.
    public let activeKeyID: String

    private let keyIDBytes: [[UInt8]]
    private let contexts: [Locked<MACContext>]
    private let activeIndex: Int

    /// - Throws: ``SigningKeyError/noKeys``, ``SigningKeyError/duplicateKeyID(_:)``,
    ///   ``SigningKeyError/unknownActiveKey(_:)`` or ``SigningKeyError/cryptoUnavailable(_:)``.
    public init(keys: [SigningKey], activeKeyID: String) throws(SigningKeyError) {
        guard !keys.isEmpty else { throw .noKeys }
        var ids: [String] = []
        for key in keys {
            guard !ids.contains(key.id) else { throw .duplicateKeyID(key.id) }
            ids.append(key.id)
        }
        guard let active = ids.firstIndex(of: activeKeyID) else { throw .unknownActiveKey(activeKeyID) }
        var contexts: [Locked<MACContext>] = []
        for key in keys { contexts.append(Locked(try MACContext(secret: key.secret))) }
        self.keyIDs = ids
        self.activeKeyID = activeKeyID
        self.keyIDBytes = ids.map { Array($0.utf8) }
        self.contexts = contexts
        self.activeIndex = active
    }

    public func authenticity(
        ofTag tag: UnsafeRawBufferPointer,
        message: UnsafeRawBufferPointer,
        keyID: UnsafeRawBufferPointer
    ) -> PayloadAuthenticity {
        guard let index = keyIndex(keyID) else { return .unknownKey }
        guard tag.count == LinkSignature.tagByteCount else { return .forged }
        let matches = withUnsafeTemporaryAllocation(byteCount: LinkSignature.tagByteCount, alignment: 1) { computed in
            guard contexts[index].withLock({ $0.tag(of: message, into: computed) }) else { return false }
            return CRYPTO_memcmp(computed.baseAddress, tag.baseAddress, LinkSignature.tagByteCount) == 0
        }
        return matches ? .authentic : .forged
    }

    /// The active key's tag of `message` (``LinkSignature/tagByteCount`` bytes).
    public func tag(for message: some Collection<UInt8>) -> [UInt8] {
        tag(for: message, keyIndex: activeIndex)
    }

    /// The tag of `message` under the key `keyID`, or `nil` when there is no such key (tests
    /// and rotation tooling).
    public func tag(for message: some Collection<UInt8>, keyID: String) -> [UInt8]? {
        guard let index = keyIDs.firstIndex(of: keyID) else { return nil }
        return tag(for: message, keyIndex: index)
    }

    private func tag(for message: some Collection<UInt8>, keyIndex index: Int) -> [UInt8] {
        let bytes = Array(message)
        var tag = [UInt8](repeating: 0, count: LinkSignature.tagByteCount)
        let done = bytes.withUnsafeBytes { message in
            tag.withUnsafeMutableBytes { tag in contexts[index].withLock { $0.tag(of: message, into: tag) } }
        }
        // The context was set up with this key in `init`; OpenSSL failing now is a broken library.
        precondition(done, "OpenSSL HMAC-SHA256 failed on a context it set up")
        return tag
    }

    /// The index of the key whose id is `keyID`'s bytes.
    private func keyIndex(_ keyID: UnsafeRawBufferPointer) -> Int? {
        for index in keyIDBytes.indices {
            let equal = keyIDBytes[index].withUnsafeBytes { id in
                id.count == keyID.count && (id.isEmpty || memcmpEqual(id, keyID))
            }
            if equal { return index }
        }
        return nil
    }

    private func memcmpEqual(_ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer) -> Bool {
        for index in 0..<first.count where first[index] != second[index] { return false }
        return true
    }
}

/// One key's OpenSSL HMAC-SHA256 state (freed with it), which makes tags without allocating
/// (`deeplink_hmac_sha256` in CCrypto's shim says how, and what it costs).
///
/// Thread safety: not thread-safe; kept behind a lock.
struct MACContext: ~Copyable {
    private let state: deeplink_hmac_sha256

    init(secret: [UInt8]) throws(SigningKeyError) {
        // OpenSSL takes the key's length as an `int`.
        guard let length = Int32(exactly: secret.count) else { throw .cryptoUnavailable("HMAC key longer than 2 GiB") }
        var state = deeplink_hmac_sha256()
        let initialised = secret.withUnsafeBytes { deeplink_hmac_sha256_init(&state, $0.baseAddress, length) == 1 }
        guard initialised else { throw .cryptoUnavailable("HMAC_Init_ex(SHA256)") }
        self.state = state
    }

    deinit { deeplink_hmac_sha256_free(state) }

    /// Writes the tag of `message` into `output` (``LinkSignature/tagByteCount`` bytes); false when
    /// OpenSSL fails.
    func tag(of message: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Bool {
        guard output.count >= LinkSignature.tagByteCount, let out = output.baseAddress else { return false }
        let tag = out.assumingMemoryBound(to: UInt8.self)
        return deeplink_hmac_sha256_tag(state, message.baseAddress, message.count, tag) == 1
    }
}
