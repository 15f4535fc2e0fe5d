import DeepLinkHarness
import Testing

/// Inputs the fuzzers (`Fuzz/run.sh`) found, kept as regression tests.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    /// Fuzz target `arguments`, input `-%\t\n`: an unknown option spelled with a newline made the
    /// one-line usage error span two lines.
    @Test func usageErrorForAnArgumentWithANewlineStaysOneLine() {
        var err = ""
        let io = CommandIO(stdout: { _ in }, stderr: { err += $0 }, readLine: { nil })
        let status = DeepLinkBench.main(arguments: ["inspect", "-%\t\n"], io: io)
        #expect(status == 2)
        #expect(err == "error: inspect: unknown option '-%\\t\\n' (see --help)\n")
        #expect(CLIError.missingValue(option: "--a\u{85}b").message == "option '--a\\u{0085}b' needs a value")
    }
}
