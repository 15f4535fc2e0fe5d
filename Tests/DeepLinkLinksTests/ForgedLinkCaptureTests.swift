import DeepLinkCore
import DeepLinkLinks
import Foundation
import Testing

/// A forged signed link cannot be captured through any public call: every public way a link gets
/// into a resolver (the list below; `Tests/PublicAPI/check_public_api.py` fails when the public graph
/// gains a capture call this list does not name) authenticates it, and the genuine link gets
/// through each of them (so each attempt could have routed).
@Suite struct ForgedLinkCaptureTests {
    /// Each public capture call, delivering `link` into a fresh resolver over `store`.
    enum Door: CaseIterable, CustomStringConvertible {
        case payloadFromAppClip, payloadFromReferrer, payloadFromUniversalLink, referrer, clipIntoStoreThenLaunch

        var description: String {
            switch self {
            case .payloadFromAppClip: "LinkResolver.capture(payload:) from an App Clip"
            case .payloadFromReferrer: "LinkResolver.capture(payload:) from a referrer"
            case .payloadFromUniversalLink: "LinkResolver.capture(payload:) from a universal link"
            case .referrer: "LinkResolver.captureReferrer(_:)"
            case .clipIntoStoreThenLaunch: "HandoffStore.capture(payload:) then LinkResolver.launch()"
            }
        }
    }

    static let now: UInt64 = 1_000
    static let validator = SignedLinkTests.validator
    static let signing = SignedLinkTests.verifier
    static let policy = try! RoutePolicy(rules: [])

    /// Routes of `link` through `door` (the app signals it is ready afterwards), and the rejection
    /// the door reported, if any.
    static func attempt(_ link: DeepLink, through door: Door) throws -> (routed: [String], rejections: [LinkRejection])
    {
        let store = InMemoryHandoffStore()
        let router = RoutedLinks()
        let observer = Rejections()
        let resolver = LinkResolver(
            configuration: .init(policy: policy, signing: signing),
            store: store,
            router: router,
            observer: observer,
            clock: ManualClock(nanos: now * 1_000_000_000)
        )
        var bytes = Array(link.string.utf8)
        var referrer = try SignedLinkTests.builder.referrer(for: link)
        var doorRejection: LinkRejection?
        switch door {
        case .payloadFromAppClip, .payloadFromReferrer, .payloadFromUniversalLink:
            let source: LinkSource =
                door == .payloadFromAppClip
                ? .appClip : door == .payloadFromReferrer ? .installReferrer : .universalLink
            doorRejection = bytes.withUnsafeBytes {
                resolver.capture(payload: $0, validator: validator, source: source, id: 7, installBeginTimestamp: 11)
            }
        case .referrer:
            let verdict = referrer.withUTF8 {
                resolver.captureReferrer(
                    UnsafeRawBufferPointer($0),
                    parser: ReferrerParser(),
                    validator: validator,
                    id: 7,
                    installBeginTimestamp: 11
                )
            }
            if case .rejected(let rejection) = verdict { doorRejection = rejection }
        case .clipIntoStoreThenLaunch:
            doorRejection = try bytes.withUnsafeBytes {
                try store.capture(
                    payload: $0,
                    validator: validator,
                    signing: signing,
                    capturedAtNanos: now * 1_000_000_000,
                    id: 7
                )
            }
            try resolver.launch()
        }
        bytes.removeAll()
        resolver.signal(.appReady)
        var rejections = observer.reasons
        // The store door reports to its caller only (there is no resolver in a clip).
        if door == .clipIntoStoreThenLaunch, let doorRejection { rejections.append(doorRejection) }
        if door != .clipIntoStoreThenLaunch { #expect(doorRejection == observer.reasons.first) }
        return (router.routed, rejections)
    }

    /// The forgeries of a genuine link, each with the rejection it must get.
    static func forgeries() throws -> [(name: String, link: DeepLink, rejection: LinkRejection)] {
        let genuine = try SignedLinkTests.signed("/wallet/transfer?to=7")
        var flipped = Array(genuine.string.utf8)
        flipped[flipped.count - 1] =
            flipped[flipped.count - 1] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
        let otherAmount = genuine.string.replacingFirst("to=7", with: "to=8")
        let strangerKeys = try HMACSHA256Authenticator(
            keys: [SigningKey(id: "k2", secret: Array(repeating: 0x55, count: 32))],
            activeKeyID: "k2"
        )
        let unknownKeys = try HMACSHA256Authenticator(
            keys: [SigningKey(id: "k9", secret: Array(repeating: 0xA7, count: 32))],
            activeKeyID: "k9"
        )
        return [
            ("tag flipped", SignedLinkTests.link(String(decoding: flipped, as: UTF8.self)), .badSignature),
            ("message changed under its tag", SignedLinkTests.link(otherAmount), .badSignature),
            (
                "signed with another secret", try SignedLinkTests.signed("/wallet/transfer?to=7", by: strangerKeys),
                .badSignature
            ),
            (
                "signed with an unknown key", try SignedLinkTests.signed("/wallet/transfer?to=7", by: unknownKeys),
                .unknownKey
            ),
            ("unsigned", SignedLinkTests.link("/wallet/transfer?to=7"), .missingSignature),
            ("expired", try SignedLinkTests.signed("/wallet/transfer?to=7", expires: now), .expiredSignature),
        ]
    }

    @Test(arguments: Door.allCases)
    func forgedSignedLinksAreRefused(door: Door) throws {
        for forgery in try Self.forgeries() {
            let result = try Self.attempt(forgery.link, through: door)
            #expect(result.routed.isEmpty, "\(door): \(forgery.name) was routed")
            #expect(result.rejections == [forgery.rejection], "\(door): \(forgery.name)")
        }
    }

    @Test(arguments: Door.allCases)
    func theGenuineLinkGetsThrough(door: Door) throws {
        let genuine = try SignedLinkTests.signed("/wallet/transfer?to=7")
        let result = try Self.attempt(genuine, through: door)
        #expect(result.routed == [genuine.string], "\(door)")
        #expect(result.rejections.isEmpty, "\(door)")
    }
}

extension String {
    /// `self` with its first `target` replaced by `replacement`.
    fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}
