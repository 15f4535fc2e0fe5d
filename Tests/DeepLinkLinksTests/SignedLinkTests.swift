import DeepLinkCore
import DeepLinkCoreTestSupport
import DeepLinkLinks
import Foundation
import Testing

/// A router that records what it routed (thread-safe enough for one-thread tests).
final class RoutedLinks: Router, @unchecked Sendable {
    var routed: [String] = []
    func route(_ pending: PendingLink) -> RouteResult {
        routed.append(pending.link.string)
        return .handled
    }
}

/// An observer that records rejections.
final class Rejections: ResolverObserver, @unchecked Sendable {
    var reasons: [LinkRejection] = []
    func resolverDecided(_ decision: ResolverDecision) {
        if case .rejected(let reason, _) = decision { reasons.append(reason) }
    }
}

/// Tags by table, no cryptography: pins the core's own verification path (the allocation test)
/// apart from any MAC implementation.
struct TableAuthenticator: PayloadAuthenticator {
    func authenticity(
        ofTag tag: UnsafeRawBufferPointer,
        message: UnsafeRawBufferPointer,
        keyID: UnsafeRawBufferPointer
    )
        -> PayloadAuthenticity
    {
        guard keyID.count == 2, keyID[0] == UInt8(ascii: "k") else { return .unknownKey }
        // The "tag" is the message length in every byte.
        for index in 0..<tag.count where tag[index] != UInt8(truncatingIfNeeded: message.count) { return .forged }
        return .authentic
    }
}

@Suite struct SignedLinkTests {
    static let keys = try! [
        SigningKey(id: "k1", secret: Array(repeating: 0x1F, count: 32)),
        SigningKey(id: "k2", secret: Array(repeating: 0xA7, count: 32)),
    ]
    static let authenticator = try! HMACSHA256Authenticator(keys: keys, activeKeyID: "k2")
    static let validator = LinkValidator(configuration: .init(allowedHosts: ["nerdy.pro"]))
    static let builder = LinkBuilder(validator: validator)
    static let verifier = try! SignedLinkVerifier(requiringSignatureUnder: ["/wallet"], authenticator: authenticator)

    static func signed(
        _ path: String,
        expires: UInt64 = 2_000,
        nonce: UInt64 = 0xABCD,
        by: HMACSHA256Authenticator = authenticator
    )
        throws -> DeepLink
    {
        try builder.signed(try builder.canonicalLink(path), authenticator: by, expiresAtSeconds: expires, nonce: nonce)
    }

    static func link(_ text: String) -> DeepLink { DeepLink(validated: text)! }

    @Test func theTagCoversExactlyTheDocumentedBytes() throws {
        let link = try Self.signed("/wallet/transfer?to=7", expires: 1_767_225_600, nonce: 0x0123_4567_89AB_CDEF)
        let message = "/wallet/transfer?to=7&dl_kid=k2&dl_exp=1767225600&dl_nonce=0123456789abcdef"
        let tag = Self.authenticator.tag(for: Array(message.utf8))
        #expect(link.string == message + LinkSignature.tagSuffix(tag))
        // RFC 4231 test case 2: OpenSSL's HMAC-SHA256 is the standard one.
        let jefe = try HMACSHA256Authenticator(
            keys: [SigningKey(id: "jefe", secret: Array("Jefe".utf8) + Array(repeating: 0, count: 28))],
            activeKeyID: "jefe"
        )
        // With the key zero-padded to the block size HMAC is unchanged (RFC 2104), so the RFC's tag holds.
        let hex = jefe.tag(for: Array("what do ya want for nothing?".utf8)).map { String(format: "%02x", $0) }.joined()
        #expect(hex == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func verificationNamesEveryFailure() throws {
        let good = try Self.signed("/wallet/transfer?to=7")
        #expect(Self.verifier.check(good, nowSeconds: 1_999) == .verified(nonce: 0xABCD))
        #expect(Self.verifier.check(good, nowSeconds: 2_000) == .rejected(.expiredSignature))
        #expect(Self.verifier.check(Self.link("/wallet/transfer?to=7"), nowSeconds: 0) == .rejected(.missingSignature))
        #expect(Self.verifier.check(Self.link("/product/42"), nowSeconds: 0) == .notRequired)
        // Tampered: any byte of the message or the tag.
        let text = good.string
        var tampered = Array(text.utf8)
        tampered[18] = UInt8(ascii: "8")
        #expect(
            Self.verifier.check(Self.link(String(decoding: tampered, as: UTF8.self)), nowSeconds: 0)
                == .rejected(.badSignature)
        )
        let flippedTag = String(text.dropLast()) + (text.hasSuffix("0") ? "1" : "0")
        #expect(Self.verifier.check(Self.link(flippedTag), nowSeconds: 0) == .rejected(.badSignature))
        // A key nobody issued.
        let stranger = try HMACSHA256Authenticator(
            keys: [SigningKey(id: "k9", secret: Array(repeating: 1, count: 32))],
            activeKeyID: "k9"
        )
        #expect(
            Self.verifier.check(try Self.signed("/wallet/x", by: stranger), nowSeconds: 0) == .rejected(.unknownKey)
        )
        // Malformed blocks.
        for malformed in [
            "/wallet?dl_sig=00", "/wallet?dl_kid=k2&dl_exp=1&dl_sig=" + String(repeating: "0", count: 64),
            String(text.prefix(text.count - 64)) + String(repeating: "G", count: 64),
        ] {
            #expect(
                Self.verifier.check(Self.link(malformed), nowSeconds: 0) == .rejected(.badSignature),
                "\(malformed)"
            )
        }
    }

    /// Rotation: links signed with the retired active key still verify; new ones use the new key.
    @Test func rotationKeepsOldKeysVerifying() throws {
        let old = try HMACSHA256Authenticator(keys: Self.keys, activeKeyID: "k1")
        let link = try Self.signed("/wallet/a", by: old)
        #expect(link.string.contains("dl_kid=k1&"))
        #expect(Self.verifier.check(link, nowSeconds: 0) == .verified(nonce: 0xABCD))
        #expect(throws: SigningKeyError.unknownActiveKey("k3")) {
            try HMACSHA256Authenticator(keys: Self.keys, activeKeyID: "k3")
        }
        #expect(throws: SigningKeyError.duplicateKeyID("k1")) {
            try HMACSHA256Authenticator(keys: [Self.keys[0], Self.keys[0]], activeKeyID: "k1")
        }
        #expect(throws: SigningKeyError.secretTooShort(keyID: "k", bytes: 16)) {
            try SigningKey(id: "k", secret: Array(repeating: 0, count: 16))
        }
        #expect(throws: SigningKeyError.secretNotHex(keyID: "k1")) {
            try HMACSHA256Authenticator(
                keyFileJSON: Array(#"{"active":"k1","keys":[{"id":"k1","secret":"xyz"}]}"#.utf8),
                path: "f"
            )
        }
    }

    /// A nonce is single-use through the store's consumed marks, also across a relaunch over the
    /// same file store; the resolver names the replay.
    @Test func aReplayedNonceIsRefusedAfterARelaunch() throws {
        let directory = NSTemporaryDirectory() + "signed-replay-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let link = try Self.signed("/wallet/transfer?to=7", expires: 4_000_000_000)
        let policy = try RoutePolicy(rules: [])
        let configuration = LinkResolver.Configuration(policy: policy, signing: Self.verifier)
        func launch() throws -> (LinkResolver, RoutedLinks, Rejections) {
            let router = RoutedLinks()
            let observer = Rejections()
            let resolver = LinkResolver(
                configuration: configuration,
                store: try FileHandoffStore(directory: directory),
                router: router,
                observer: observer
            )
            try resolver.launch()
            resolver.signal(.appReady)
            return (resolver, router, observer)
        }
        func capture(_ resolver: LinkResolver, id: UInt64) -> LinkRejection? {
            var bytes = Array(("https://nerdy.pro" + link.string).utf8)
            return bytes.withUnsafeMutableBytes { payload in
                resolver.capture(
                    payload: UnsafeRawBufferPointer(payload),
                    validator: Self.validator,
                    source: .universalLink,
                    capturedAtNanos: WallClock().nowNanos(),
                    id: id
                )
            }
        }
        let (first, firstRouter, _) = try launch()
        #expect(capture(first, id: 1) == nil)
        #expect(firstRouter.routed == [link.string])
        // The next process: the same link, a new capture id.
        let (second, secondRouter, rejections) = try launch()
        #expect(capture(second, id: 2) == .replayed)
        #expect(secondRouter.routed.isEmpty)
        #expect(rejections.reasons == [.replayed])
        // An unsigned payload to the signing route, through the referrer path.
        let forged = Array("deeplink=%2Fwallet%2Ftransfer%3Fto%3D7".utf8)
        let outcome = forged.withUnsafeBytes { referrer in
            second.captureReferrer(
                referrer,
                parser: ReferrerParser(),
                validator: Self.validator,
                capturedAtNanos: WallClock().nowNanos(),
                id: 4,
                installBeginTimestamp: 77
            )
        }
        #expect(outcome == .rejected(.missingSignature))
    }

    /// The core's verification of a signed referrer link adds no allocation: parse, validate and
    /// check through an authenticator that allocates nothing itself.
    @Test func verificationAddsNoAllocation() throws {
        guard !Sanitizer.isActive else { return }
        let verifier = try SignedLinkVerifier(requiringSignatureUnder: ["/wallet"], authenticator: TableAuthenticator())
        let message = "/wallet/transfer?to=7&dl_kid=k1&dl_exp=9000&dl_nonce=00000000000000aa"
        let tag = LinkSignature.tagSuffix([UInt8](repeating: UInt8(message.utf8.count), count: 32))
        let referrer = Array(
            ("deeplink="
                + (message + tag).replacingOccurrences(of: "/", with: "%2F")
                .replacingOccurrences(of: "&", with: "%26").replacingOccurrences(of: "=", with: "%3D")
                .replacingOccurrences(of: "?", with: "%3F")).utf8
        )
        let parser = ReferrerParser()
        var link = DeepLink(validated: "/")!
        var verified = 0
        func verifyOnce() {
            referrer.withUnsafeBytes { bytes in
                guard parser.verdict(for: bytes, validator: Self.validator, into: &link) == .link else { return }
                if case .verified = verifier.check(link, nowSeconds: 100) { verified += 1 }
            }
        }
        verifyOnce()
        #expect(verified == 1)
        let bytes = AllocationCounter.bytesAllocated { for _ in 0..<10_000 { verifyOnce() } }
        #expect(bytes == 0, "\(bytes) bytes over 10,000 verifications")
        #expect(verified == 10_001)
    }

    /// The OpenSSL authenticator allocates nothing per tag either, libcrypto included (its HMAC
    /// context copies into the one it holds: ``HMACSHA256Authenticator``), for authentic and
    /// forged tags alike; so the whole verification path is allocation-free. The link must still
    /// verify: an allocation-free path that answered wrongly would pass the byte count.
    @Test func opensslVerificationAllocatesNothing() throws {
        guard !Sanitizer.isActive else { return }
        let link = try Self.signed("/wallet/transfer?to=7")
        let text = link.string
        let forgedLink = Self.link(String(text.dropLast()) + (text.hasSuffix("0") ? "1" : "0"))
        #expect(Self.verifier.check(forgedLink, nowSeconds: 0) == .rejected(.badSignature))
        var verified = 0
        var refused = 0
        let bytes = AllocationCounter.bytesAllocated {
            for _ in 0..<1_000 {
                if case .verified = Self.verifier.check(link, nowSeconds: 0) { verified += 1 }
                if Self.verifier.check(forgedLink, nowSeconds: 0) == .rejected(.badSignature) { refused += 1 }
            }
        }
        #expect(verified == 1_000)
        #expect(refused == 1_000)
        #expect(bytes == 0, "\(bytes) bytes over 2,000 verifications")
    }
}
