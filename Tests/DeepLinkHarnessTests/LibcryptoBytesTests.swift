import Testing

@testable import DeepLinkHarness

/// summary.csv's libcrypto columns: what OpenSSL's HMAC allocates inside `core`'s journeys
/// (signed links are verified; OpenSSL 3.0 allocates per tag), counted apart by libcrypto's memory
/// hooks, as a part of the strategy's bytes; the peers verify nothing.
@Suite struct LibcryptoBytesTests {
    @Test func coresVerifiedTagsAreCountedAsLibcryptosBytes() {
        guard !Sanitizer.isActive else { return }
        #expect(LibcryptoAllocations.areCounted)
        let configuration = RunConfiguration(
            journeys: 2_000,
            seed: 1,
            threads: 1,
            strategies: [.core, .naive],
            raceShare: 0.5
        )
        let tallies = Runner.run(configuration).tallies
        let core = tallies[0]
        #expect(core.libcryptoBytes > 0)
        #expect(core.libcryptoBytes <= core.allocatedBytes)
        #expect(core.racingLibcryptoBytes > 0)
        #expect(core.racingLibcryptoBytes <= core.racingBytes)
        #expect(core.racingBytes <= core.allocatedBytes)
        #expect(tallies[1].libcryptoBytes == 0)
        #expect(tallies[1].racingLibcryptoBytes == 0)
    }
}
