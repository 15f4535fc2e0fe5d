import DeepLinkCore
import DeepLinkCoreTestSupport
import Synchronization
import Testing

/// Attribution travels with the link: parsed once from the referrer, inline in the record,
/// delivered with the route, kept by the file store; linkless referrers are decisions.
@Suite struct LinkAttributionTests {
    typealias F = ResolverFixtures

    static func attribution(of referrer: String) -> LinkAttribution {
        var attribution = LinkAttribution()
        var referrer = referrer
        _ = referrer.withUTF8 { bytes in
            ReferrerParser().withReferrer(in: UnsafeRawBufferPointer(bytes)) { attribution.assign(from: $0) }
        }
        return attribution
    }

    @Test func valuesAreDecodedOnceAndAbsentDiffersFromEmpty() {
        let campaign = Self.attribution(
            of: "utm_source=google&utm_medium=cpc&utm_campaign=spring+sale%21&utm_term=&gclid=Cj0K%3D&utm_source=other"
        )
        #expect(campaign.value(.utmSource) == "google", "the first occurrence counts")
        #expect(campaign.value(.utmMedium) == "cpc")
        #expect(campaign.value(.utmCampaign) == "spring sale!")
        #expect(campaign.value(.utmTerm) == "", "present, empty")
        #expect(campaign.value(.utmContent) == nil, "absent")
        #expect(!campaign.contains(.utmContent))
        #expect(campaign.value(.gclid) == "Cj0K=")
        #expect(!campaign.isTruncated)
        #expect(Self.attribution(of: "deeplink=%2Fproduct%2F1").isEmpty)
        let doubleEncoded = Self.attribution(of: "deeplink%3D%252Fproduct%252F42%26utm_source%3Dgoogle")
        #expect(doubleEncoded.value(.utmSource) == "google", "read from the referrer decoded once")
    }

    @Test func valuesThatDoNotFitAreLeftOutWhole() {
        let long = String(repeating: "g", count: LinkAttribution.capacity - 3)
        let campaign = Self.attribution(of: "utm_source=google&utm_campaign=\(long)&gclid=0123456789abcdef")
        #expect(campaign.value(.utmSource) == "google")
        #expect(campaign.value(.utmCampaign) == nil, "6 + (capacity - 3) bytes do not fit: left out whole")
        #expect(campaign.value(.gclid) == "0123456789abcdef")
        #expect(campaign.isTruncated)
        let exact = Self.attribution(of: "gclid=" + String(repeating: "x", count: LinkAttribution.capacity))
        #expect(exact.value(.gclid)?.utf8.count == LinkAttribution.capacity)
        #expect(!exact.isTruncated)
    }

    @Test func theRouteCarriesTheCampaignAndLinklessReferrersAreDecisions() throws {
        let router = CampaignRouter()
        let observer = RecordingObserver()
        let app = SimulatedApp(router: router, observer: observer)
        let parser = ReferrerParser()
        func capture(_ referrer: String, id: UInt64) -> ReferrerVerdict {
            var referrer = referrer
            return referrer.withUTF8 { bytes in
                app.resolver.captureReferrer(
                    UnsafeRawBufferPointer(bytes),
                    parser: parser,
                    validator: TestApp.validator,
                    capturedAtNanos: 5,
                    id: id,
                    installBeginTimestamp: 77,
                    clickTimestampSeconds: 1_700_000_000
                )
            }
        }
        #expect(capture("utm_source=google&utm_medium=cpc&deeplink=%2Fproduct%2F42", id: 1) == .link)
        #expect(capture("utm_source=google-play&utm_medium=organic", id: 2) == .organic)
        #expect(capture("utm_source=(not%20set)&utm_medium=(not%20set)", id: 3) == .notSet)
        #expect(capture("1234567", id: 4) == .noPayload)
        #expect(capture("deeplink=javascript%3Aalert(1)", id: 5) == .rejected(.disallowedScheme))
        app.resolver.signal(.appReady)

        let routed = try #require(router.campaigns.first)
        #expect(routed.value(.utmSource) == "google")
        #expect(routed.value(.utmMedium) == "cpc")
        #expect(routed.clickTimestampSeconds == 1_700_000_000)
        let linkless = observer.decisions.compactMap { decision -> ResolverDecision.LinklessReferrer? in
            if case .linklessReferrer(let kind, _) = decision { return kind }
            return nil
        }
        #expect(linkless == [.organic, .notSet, .noPayload])
        #expect(
            observer.decisions.contains(
                .linklessReferrer(
                    .organic,
                    attribution: {
                        var organic = Self.attribution(of: "utm_source=google-play&utm_medium=organic")
                        organic.clickTimestampSeconds = 1_700_000_000
                        return organic
                    }()
                )
            )
        )
        #expect(observer.decisions.contains(.rejected(.disallowedScheme, source: .installReferrer)))
    }

    @Test func aRefusedReferrerIsADecision() {
        let observer = RecordingObserver()
        let app = SimulatedApp(router: RecordingRouter(), observer: observer)
        let parser = ReferrerParser(configuration: .init(maxInputBytes: 8))
        var referrer = "deeplink=%2Fproduct%2F42"
        let outcome = referrer.withUTF8 { bytes in
            app.resolver.captureReferrer(
                UnsafeRawBufferPointer(bytes),
                parser: parser,
                validator: TestApp.validator,
                capturedAtNanos: 0,
                id: 1,
                installBeginTimestamp: 1
            )
        }
        guard case .error(let error) = outcome else { return #expect(Bool(false), "\(outcome)") }
        #expect(observer.decisions == [.referrerRefused(error)])
    }

    @Test func theFileStoreKeepsTheCampaignAndStillReadsVersionOne() throws {
        let root = try HandoffTestDirectory()
        defer { root.remove() }
        let store = try FileHandoffStore(directory: root.path)
        var link = F.link("/product/42", id: 7, source: .installReferrer, installBegin: 99)
        link.attribution = Self.attribution(of: "utm_source=google&utm_term=&gclid=abc")
        link.attribution.clickTimestampSeconds = 1_700_000_123
        try store.save(link)
        #expect(try store.loadPending().pending == [link])

        // A version 1 record (no account, no attribution) written by an earlier build still loads:
        // with neither, the version 3 record ends in the account's length byte and the 15 fixed
        // attribution bytes.
        var plain = F.link("/product/43", id: 8)
        plain.attribution = LinkAttribution()
        var record = FileHandoffRecord.encode(plain)
        record.removeLast(1 + FileHandoffRecord.fixedAttributionByteCount)
        record[4] = 1
        record[8] -= UInt8(1 + FileHandoffRecord.fixedAttributionByteCount)
        try root.write(FileHandoffStoreTests().resealed(record), to: "pending-0000000000000008.rec")
        #expect(try store.loadPending().pending == [link, plain])
    }

    @Test func capturingAReferrerAllocatesNothingAfterWarmUp() {
        guard !Sanitizer.isActive else { return }
        #expect(AllocationCounter.isJemallocActive)
        var deliveries = ReferrerDeliveries("utm_source=google&utm_medium=cpc&gclid=Cj0KCQ&deeplink=%2Fproduct%2F42")
        for _ in 0..<16 { deliveries.deliver() }
        let bytes = AllocationCounter.bytesAllocated {
            for _ in 0..<1_000 { deliveries.deliver() }
        }
        #expect(bytes == 0)
    }
}

/// Keeps the campaign of every link it handles.
final class CampaignRouter: Router {
    private let kept = Mutex<[LinkAttribution]>([])
    let keep: Bool

    init(keep: Bool = true) { self.keep = keep }

    func route(_ link: PendingLink) -> RouteResult {
        if keep { kept.withLock { $0.append(link.attribution) } }
        return .handled
    }

    var campaigns: [LinkAttribution] { kept.withLock { $0 } }
}
