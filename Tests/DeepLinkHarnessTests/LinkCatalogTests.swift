import DeepLinkCore
import DeepLinkHarness
import Testing

/// The catalog's hand-written verdicts are what the oracle expects; DeepLinkCore's validator must
/// agree with them (or `core` would show lost or misrouted journeys).
@Suite struct LinkCatalogTests {
    @Test func clipAndUniversalLinkURLsValidateAsTheCatalogSays() {
        let validator = ExampleApp.validator
        for entry in LinkCatalog.entries where !entry.url.isEmpty {
            let result = validator.validate(entry.url)
            switch (entry.verdict, result) {
            case (.route(let canonical, _), .success(let link)):
                #expect(link.string == canonical, "\(entry.name)")
            case (.reject(let reason), .failure(let rejection)):
                #expect(reason.name == rejection.name, "\(entry.name)")
            default:
                Issue.record("\(entry.name): catalog says \(entry.verdict), validator says \(result)")
            }
        }
    }

    @Test func referrersParseAsTheCatalogSays() {
        let validator = ExampleApp.validator
        let parser = ReferrerParser()
        for entry in LinkCatalog.entries {
            let verdict = parser.verdict(for: entry.referrer, validator: validator)
            switch (entry.verdict, verdict) {
            case (.route(let canonical, _), .link(let link)):
                #expect(link.string == canonical, "\(entry.name)")
            case (.reject(let reason), .rejected(let rejection)):
                #expect(reason.name == rejection.name, "\(entry.name)")
            case (.reject(let reason), .error(let error)):
                // A referrer the parser refuses (the payload key twice) has no link to validate.
                #expect(reason.name == error.name, "\(entry.name)")
            case (.organic, .organic), (.notSet, .notSet), (.noPayload, .noPayload):
                break
            default:
                Issue.record("\(entry.name): catalog says \(entry.verdict), parser says \(verdict)")
            }
        }
    }
}
