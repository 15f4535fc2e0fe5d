import DeepLinkCore
import DeepLinkCoreTestSupport
import Testing

@Suite struct ReferrerVerdictTests {
    let parser = ReferrerParser()
    let validator = TestApp.validator

    func verdict(_ input: String, parser: ReferrerParser? = nil) -> ReferrerRead {
        (parser ?? self.parser).verdictRead(input, validator: validator)
    }

    func link(_ text: String) throws -> ReferrerRead {
        let link: DeepLink = try #require(DeepLink(validated: text))
        return .link(link)
    }

    @Test func payloadBecomesALink() throws {
        #expect(verdict("utm_source=google&utm_medium=cpc&deeplink=%2Fproduct%2F42") == (try link("/product/42")))
        #expect(verdict("deeplink=/product/42%3Fref%3Dshare") == (try link("/product/42?ref=share")))
        #expect(verdict("deeplink=%2Fsearch%3Fq%3Dred+shoes").link?.string == "/search?q=red shoes")
    }

    @Test func placeholdersAreVerdictsNotErrors() {
        #expect(verdict("utm_source=google-play&utm_medium=organic") == .organic)
        #expect(verdict("utm_source=(not%20set)&utm_medium=(not%20set)") == .notSet)
        #expect(verdict("utm_source=google-play&utm_medium=organic").reason == nil)
        #expect(verdict("utm_source=google&utm_medium=organic") == .noPayload)
    }

    @Test func payloadWinsOverPlaceholder() throws {
        #expect(verdict("utm_source=google-play&utm_medium=organic&deeplink=%2Fa") == (try link("/a")))
    }

    @Test func bareTokensAndEmptyInputHaveNoPayload() {
        #expect(verdict("1234567") == .noPayload)
        #expect(verdict("") == .noPayload)
        #expect(verdict("&&&") == .noPayload)
        #expect(verdict("utm_source=google") == .noPayload)
    }

    @Test func doubleEncodedReferrerIsDecodedOnceAndParsedAgain() throws {
        #expect(verdict("utm_source%3Dgoogle%26deeplink%3D%252Fproduct%252F42") == (try link("/product/42")))
        #expect(verdict("utm_source%3Dgoogle-play%26utm_medium%3Dorganic") == .organic)
    }

    @Test func validatorSeesTheDecodedBytesAsTheyAre() {
        #expect(verdict("deeplink=") == .rejected(.empty))
        #expect(verdict("deeplink") == .rejected(.empty))
        #expect(verdict("deeplink=%2Fa%0Ab") == .rejected(.controlCharacter))
        #expect(verdict("deeplink=%2Fa%00") == .rejected(.controlCharacter))
        #expect(verdict("deeplink=%2F" + String(repeating: "a", count: 600)) == .rejected(.tooLong))
        #expect(verdict("deeplink=%2Fa").reason == nil)
        #expect(verdict("deeplink=%2Fa%0Ab").reason == "controlCharacter")
    }

    @Test func rejectionsCarryTheValidatorsReason() throws {
        #expect(verdict("deeplink=%2F..%2Fadmin") == .rejected(.dotSegment))
        #expect(verdict("deeplink=javascript%3Aalert(1)") == .rejected(.disallowedScheme))
        #expect(verdict("deeplink=%2Fa%FF") == .rejected(.invalidUTF8))
        #expect(verdict("deeplink=%2Fa%5Cb") == .rejected(.backslash))
        #expect(verdict("deeplink=%2F%2Fevil.example") == .rejected(.schemeRelative))
        #expect(verdict("deeplink=https%3A%2F%2Fevil.example%2Fx") == .rejected(.foreignHost))
        #expect(verdict("deeplink=product%2F42") == .rejected(.notAPath))
        #expect(verdict("deeplink=https%3A%2F%2Fnerdy.pro%2Fp%3Fx%3D1") == (try link("/p?x=1")))
        let routed = ReferrerParser().verdictRead(
            "deeplink=%2Fsettings",
            validator: LinkValidator(configuration: .init(allowedHosts: TestApp.hosts, routes: ["/product/"]))
        )
        #expect(routed == .rejected(.unknownRoute))
    }

    @Test func payloadIsDecodedExactlyOnce() throws {
        // Decoded twice, `%2520` would become a space; once, it is the three bytes `%20`.
        #expect(verdict("deeplink=%2Fa%2520b") == (try link("/a%20b")))
        // Decoded twice, `%252F` would become `/`; once, it is `%2F`, an encoded delimiter in the path.
        #expect(verdict("deeplink=%2Fa%252Fb") == .rejected(.encodedDelimiter))
        // An encoded dot segment one level down is still caught (the validator looks through it).
        #expect(verdict("deeplink=%2F%252e%252e%2Fadmin") == .rejected(.dotSegment))
    }

    @Test func limitsAreNamedErrors() {
        let small = ReferrerParser(configuration: .init(maxInputBytes: 16, maxFields: 2))
        #expect(verdict("deeplink=%2Fabcdefgh", parser: small) == .error(.inputTooLong(length: 20, limit: 16)))
        #expect(verdict("a&b&deeplink=%2F", parser: small) == .error(.tooManyFields(count: 3, limit: 2)))
        #expect(verdict("a&b&deeplink=%2F", parser: small).name == "error")
        #expect(verdict("a&b&deeplink=%2F", parser: small).reason == "tooManyFields")
    }

    @Test func configuredPayloadKey() throws {
        let custom = ReferrerParser(configuration: .init(payloadKey: "af_dp"))
        #expect(verdict("deeplink=%2Fa&af_dp=%2Fb", parser: custom) == (try link("/b")))
        #expect(verdict("deeplink=%2Fa", parser: custom) == .noPayload)
    }

    @Test func bytesAndStringAgree() {
        for input in realisticReferrerCorpus {
            var bytesLink = DeepLink(validated: "/")!
            var stringLink = bytesLink
            let fromBytes = input.withUnsafeBytes { parser.verdict(for: $0, validator: validator, into: &bytesLink) }
            let text = String(decoding: input, as: UTF8.self)
            #expect(fromBytes == parser.verdict(for: text, validator: validator, into: &stringLink))
            #expect(bytesLink == stringLink)
        }
    }

    @Test func verdictNamesAreStable() throws {
        #expect(try link("/a").name == "link")
        #expect(ReferrerVerdict.organic.name == "organic")
        #expect(ReferrerVerdict.notSet.name == "notSet")
        #expect(ReferrerVerdict.noPayload.name == "noPayload")
        #expect(ReferrerVerdict.rejected(.dotSegment).name == "rejected")
        #expect(ReferrerVerdict.rejected(.dotSegment).reason == "dotSegment")
        #expect(ReferrerVerdict.error(.inputTooLong(length: 2, limit: 1)).reason == "inputTooLong")
    }

    @Test func randomBytesAlwaysGetAVerdict() {
        var generator = SeededGenerator(seed: 7)
        let iterations = Sanitizer.isActive ? 5_000 : 20_000
        var names: Set<String> = []
        for _ in 0..<iterations {
            var input = randomReferrer(using: &generator)
            if Bool.random(using: &generator) { input = Array("deeplink=".utf8) + input }
            var link = DeepLink(validated: "/")!
            let result = input.withUnsafeBytes { parser.verdict(for: $0, validator: validator, into: &link) }
            names.insert(result.name)
        }
        #expect(names.isSuperset(of: ["noPayload", "rejected"]))
    }

    /// A verdict writes the link for `.link` only (whatever the link held before) and leaves it
    /// unchanged for every other verdict, on every corpus referrer and on random bytes.
    @Test func verdictsWriteTheLinkOnlyForALink() {
        var random = SeededGenerator(seed: 7)
        var inputs = realisticReferrerCorpus
        for _ in 0..<2_000 {
            let count = Int(random.next() % 80)
            inputs.append((0..<count).map { _ in Array("%=&+/.2Fdeplink?".utf8)[Int(random.next() % 16)] })
        }
        let first = DeepLink(validated: "/untouched")!
        let second = DeepLink(validated: "/other")!
        var links = 0
        for input in inputs {
            var one = first
            var two = second
            let verdict = input.withUnsafeBytes { parser.verdict(for: $0, validator: validator, into: &one) }
            #expect(input.withUnsafeBytes { parser.verdict(for: $0, validator: validator, into: &two) } == verdict)
            if case .link = verdict {
                links += 1
                #expect(one == two)
            } else {
                #expect(one == first && two == second)
            }
        }
        #expect(links > 0)
    }

    @Test func inPlaceVerdictsAllocateNothing() {
        guard !Sanitizer.isActive else { return }
        #expect(AllocationCounter.isJemallocActive)
        var link = DeepLink(validated: "/")!
        var links = 0
        for input in realisticReferrerCorpus
        where input.withUnsafeBytes({
            parser.verdict(for: $0, validator: validator, into: &link)
        }) == .link {
            links += 1
        }
        let parses = 10_000
        let before = AllocationCounter.threadAllocatedBytes()
        for index in 0..<parses {
            let input = realisticReferrerCorpus[index % realisticReferrerCorpus.count]
            if input.withUnsafeBytes({ parser.verdict(for: $0, validator: validator, into: &link) }) == .link {
                links += 1
            }
        }
        let bytes = AllocationCounter.threadAllocatedBytes() &- before
        #expect(bytes == 0, "\(bytes) bytes over \(parses) verdicts")
        #expect(links > 0)
    }
}
