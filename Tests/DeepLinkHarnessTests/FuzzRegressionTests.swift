import DeepLinkHarness
import Testing

/// Inputs the fuzzers (`Fuzz/run.sh`) found, kept as regression tests.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    /// Fuzz target `arguments`, input `-%\t\n`: an unknown option spelled with a newline made the
    /// one-line usage error span two lines.
    @Test func usageErrorForAnArgumentWithANewlineStaysOneLine() {
        var err = ""
        let io = CommandIO(stdout: { _ in }, stderr: { err += $0 })
        let status = DeepLinkBench.main(arguments: ["inspect", "-%\t\n"], io: io)
        #expect(status == 2)
        #expect(err == "error: inspect: unknown option '-%\\t\\n' (see --help)\n")
        #expect(CLIError.missingValue(option: "--a\u{85}b").message == "option '--a\\u{0085}b' needs a value")
    }

    /// Fuzz target `histogram`, derived mode, buckets `0:18446744073709551615`: a histogram column
    /// stating UInt64.max values decoded fine, then any percentile trapped converting 2^64 (the
    /// count as a Double) to UInt64.
    @Test func percentilesOfAHistogramWithUInt64MaxValues() throws {
        let histogram = try Histogram(count: .max, min: 0, max: 0, encodedBuckets: "0:18446744073709551615")
        #expect(Histogram.rank(ofPercentile: 100, count: .max) == .max)
        #expect(Histogram.rank(ofPercentile: 0, count: .max) == 1)
        for p in [0.0, 50, 99, 99.9, 100] {
            #expect(histogram.value(atPercentile: p) == 0)
        }
        let spread = try Histogram(
            count: .max,
            min: 1,
            max: 4096,
            encodedBuckets: "1:9223372036854775807 4096:9223372036854775808"
        )
        #expect(spread.value(atPercentile: 100) == 4096)
        #expect(spread.value(atPercentile: 10) == 1)
    }
}
