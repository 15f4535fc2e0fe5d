import DeepLinkCore
import DeepLinkHarness
import Testing

/// The catalog's hand-written verdicts are what the oracle expects; DeepLinkCore's validator (and,
/// under the example app's signing prefixes, its signature check) must agree with them (or `core`
/// would show lost or misrouted journeys).
@Suite struct LinkCatalogTests {
    /// The signature check `core` applies after validation, at a journey's time (seconds).
    static func signatureChecked(_ link: DeepLink) -> Result<DeepLink, LinkRejection> {
        if case .rejected(let rejection) = ExampleApp.signing.check(link, nowSeconds: 1_000) {
            return .failure(rejection)
        }
        return .success(link)
    }

    @Test func clipAndUniversalLinkURLsValidateAsTheCatalogSays() {
        let validator = ExampleApp.validator
        for entry in LinkCatalog.entries where !entry.url.isEmpty {
            let result = validator.validate(entry.url).flatMap(Self.signatureChecked)
            switch (entry.verdict, result) {
            case (.route(let canonical, _), .success(let link)):
                #expect(link.string == canonical, "\(entry.name)")
            case (.reject(let reason), .failure(let rejection)):
                #expect(reason == .link(rejection), "\(entry.name)")
            default:
                Issue.record("\(entry.name): catalog says \(entry.verdict), validator says \(result)")
            }
        }
    }

    @Test func referrersParseAsTheCatalogSays() {
        let validator = ExampleApp.validator
        let parser = ReferrerParser()
        for entry in LinkCatalog.entries {
            var link = DeepLink(validated: "/")!
            var verdict = parser.verdict(for: entry.referrer, validator: validator, into: &link)
            if case .link = verdict, case .failure(let rejection) = Self.signatureChecked(link) {
                verdict = .rejected(rejection)
            }
            switch (entry.verdict, verdict) {
            case (.route(let canonical, _), .link):
                #expect(link.string == canonical, "\(entry.name)")
            case (.reject(let reason), .rejected(let rejection)):
                #expect(reason == .link(rejection), "\(entry.name)")
            case (.reject(let reason), .error(let error)):
                // A referrer the parser refuses (the payload key twice) has no link to validate.
                #expect(reason == RejectionReason(error), "\(entry.name)")
                #expect(reason.name == error.name, "\(entry.name)")
            case (.organic, .organic), (.notSet, .notSet), (.noPayload, .noPayload):
                break
            default:
                Issue.record("\(entry.name): catalog says \(entry.verdict), parser says \(verdict)")
            }
        }
    }

    /// The catalog's reasons are the core's rejections themselves plus the referrer's two refusals:
    /// every ``LinkRejection`` is one, named as the core names it, and the raw values that index
    /// the outcome counters number them densely and round-trip.
    @Test func rejectionReasonsAreTheCoresRejectionsAndTheReferrersRefusals() {
        let reasons = RejectionReason.allCases
        #expect(reasons.count == LinkRejection.allCases.count + 2)
        for rejection in LinkRejection.allCases {
            #expect(reasons.contains(.link(rejection)))
            #expect(RejectionReason.link(rejection).name == rejection.name)
        }
        #expect(RejectionReason.malformedReferrer.name == "malformedReferrer")
        #expect(RejectionReason.duplicatePayloadKey.name == "duplicatePayloadKey")
        #expect(RejectionReason(.inputTooLong(length: 5_000, limit: 4_096)) == .malformedReferrer)
        #expect(RejectionReason(.duplicatePayloadKey(count: 2)) == .duplicatePayloadKey)
        #expect(reasons.map(\.rawValue) == (0..<UInt8(reasons.count)).map { $0 })
        for reason in reasons {
            #expect(RejectionReason(rawValue: reason.rawValue) == reason)
            let outcome = JourneyOutcome.rejected(reason)
            #expect(JourneyOutcome(denseIndex: outcome.denseIndex) == outcome)
            #expect(outcome.name == "rejected:" + reason.name)
        }
        #expect(RejectionReason(rawValue: UInt8(reasons.count)) == nil)
    }
}

/// The plain facts the oracle, the generator and the classifier read must say what the entries
/// say, and two extras' coverage rows follow their bits.
@Suite struct LinkCatalogFactsTests {
    @Test func factsMirrorEveryEntry() {
        #expect(LinkCatalog.facts.count == LinkCatalog.entries.count)
        for (index, entry) in LinkCatalog.entries.enumerated() {
            let facts = LinkCatalog.facts(UInt8(index))
            #expect(facts.isRoutable == entry.verdict.isRoutable, "\(entry.name)")
            #expect(facts.needsLogin == entry.verdict.needsLogin, "\(entry.name)")
            #expect(facts.account == entry.account, "\(entry.name)")
            #expect(facts.singleUse == entry.singleUse, "\(entry.name)")
            switch (entry.verdict, facts.action) {
            case (.route, .route), (.organic, .organic), (.notSet, .notSet), (.noPayload, .noPayload):
                break
            case (.reject(let reason), .reject(let mirrored)):
                #expect(reason == mirrored, "\(entry.name)")
            default:
                Issue.record("\(entry.name): verdict \(entry.verdict), facts \(facts.action)")
            }
        }
        #expect(LinkCatalog.facts(LinkCatalog.unknownID).action == .noPayload)
    }

    /// Same destination exactly when both route to the same canonical link (or are the same id).
    @Test func sameDestinationIsCanonicalEquality() {
        let ids = Array(0..<UInt8(LinkCatalog.entries.count)) + [LinkCatalog.unknownID]
        for first in ids {
            for second in ids {
                let expected: Bool
                if case .route(let a, _) = LinkCatalog.entry(first).verdict,
                    case .route(let b, _) = LinkCatalog.entry(second).verdict
                {
                    expected = a == b
                } else {
                    expected = first == second
                }
                #expect(LinkCatalog.sameDestination(first, second) == expected, "\(first) \(second)")
            }
        }
    }

    /// Coverage counts extras by bit: extra `i` of ``ExtraPerturbations/named`` must be bit `i`.
    @Test func namedExtrasAreInBitOrder() {
        for (index, extra) in ExtraPerturbations.named.enumerated() {
            #expect(extra.extra.rawValue == 1 << index, "\(extra.name)")
        }
    }
}
