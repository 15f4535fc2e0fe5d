import AllocationCounting
import Testing

@testable import DeepLinkHarness

/// summary.csv's byte columns for `core`, whose journeys verify signed links (OpenSSL's HMAC,
/// counted apart in the libcrypto columns by its memory hooks) and race: a racing journey allocates
/// nothing, in libcrypto or anywhere else (the race's machinery is set up when the strategy is
/// made, before the run; checked in release builds), and no journey allocates in libcrypto. The
/// peers verify nothing.
@Suite struct LibcryptoBytesTests {
    @Test func racingJourneysAllocateNothing() {
        guard !Sanitizer.isActive else { return }
        #expect(AllocationCounter.isJemallocActive)
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
        #expect(core.racingJourneys > 500)
        #expect(core.libcryptoBytes == 0)
        #expect(core.racingLibcryptoBytes == 0)
        #if !DEBUG
        // A debug build's invariant checks (the queue's, the histograms') allocate in every journey.
        #expect(core.racingBytes == 0)
        #endif
        #expect(tallies[1].libcryptoBytes == 0)
        #expect(tallies[1].racingLibcryptoBytes == 0)
    }
}
