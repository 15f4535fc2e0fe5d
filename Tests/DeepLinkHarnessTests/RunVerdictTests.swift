import DeepLinkHarness
import Foundation
import Testing

/// `run`'s verdict line and exit status, and its default summary's width, on real runs.
@Suite struct RunVerdictTests {
    /// A core miswired to route twice fails its default threshold: exit 1 and a FAIL verdict
    /// naming the count summary.csv has; the same run of a correct core passes with exit 0.
    @Test func aBrokenCoreFailsTheRunAndACorrectOnePasses() throws {
        let out = RunCommandTests.directory("verdict")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let arguments = ["run", "--journeys", "3000", "--seed", "2", "--threads", "1", "--out", out, "--quiet"]
        let broken = RunCommandTests.bench(arguments + ["--no-report", "--core-faults", "routeTwice"])
        #expect(broken.status == 1, "\(broken.err)")
        let summary = try RunCommandTests.table(out, ReportSchema.summaryFile)
        let violations = try summary.unsigned("violations", row: 0)
        #expect(try summary.string("strategy", row: 0) == "core")
        #expect(violations > 0)
        let lastLine = broken.out.split(separator: "\n").last.map(String.init)
        #expect(
            lastLine
                == "verdict: FAIL — core: \(ReportFormat.grouped(Double(violations))) violations "
                + "(threshold core.violations==0)"
        )
        let thresholds = try RunCommandTests.table(out, ReportSchema.thresholdsFile)
        #expect(try thresholds.string("passed", row: 0) == "0")

        let correct = RunCommandTests.bench(arguments + ["--no-report", "--threshold", "core.p999<1h"])
        #expect(correct.status == 2, "an hour is not a unit: \(correct.err)")
        #expect(correct.err.contains("ns, us, µs, ms or s"))
        let passing = RunCommandTests.bench(
            arguments + ["--no-report", "--threshold", "core.p999<60s", "--threshold", "naive.violations>0"]
        )
        #expect(passing.status == 0, "\(passing.err)")
        #expect(
            passing.out.hasSuffix(
                "verdict: PASS — 0 violations in core (under test), 2 more thresholds met; "
                    + "peers reported, not judged\n"
            )
        )
        // A threshold that cannot hold fails the run on its own.
        let slow = RunCommandTests.bench(arguments + ["--no-report", "--threshold", "core.p50<0ns"])
        #expect(slow.status == 1)
        #expect(slow.out.contains("verdict: FAIL — core: p50 "))
    }

    @Test(arguments: [
        ["--threshold", "core.p99"], ["--threshold", "core.p99<2"], ["--threshold", "clipboard.p99<2ms"],
        ["--threshold", "core.latency<2ms"],
    ])
    func badThresholdsAreUsageErrors(_ extra: [String]) {
        let result = RunCommandTests.bench(["run", "--journeys", "10", "--strategies", "core,naive"] + extra)
        #expect(result.status == 2)
        #expect(result.err.hasPrefix("error: run: "))
        #expect(result.err.split(separator: "\n").count == 1, "\(result.err)")
    }

    /// The default summary of a run of every built-in strategy and an exec: one fits 100 columns
    /// (the output directory's own line aside); `--wide` prints every outcome by its one name.
    @Test(.enabled(if: ExecStrategyTests.benchBinary() != nil))
    func theDefaultSummaryFitsOneHundredColumns() throws {
        let binary = try #require(ExecStrategyTests.benchBinary())
        let out = RunCommandTests.directory("narrow")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let arguments = [
            "run", "--journeys", "2000", "--seed", "4", "--threads", "2", "--out", out, "--quiet", "--no-report",
            "--exec", "my-resolver.v2='\(binary)' serve-core",
        ]
        let narrow = RunCommandTests.bench(arguments)
        #expect(narrow.status == 0, "\(narrow.err)")
        for line in narrow.out.split(separator: "\n") where !line.contains(out) {
            #expect(line.count <= 100, "\(line.count) columns: \(line)")
        }
        for name in ["core", "naive", "fingerprint", "clipboard", "exec:my-resolver.v2"] {
            #expect(narrow.out.contains("\n\(name) "), "\(name) has no row")
        }
        #expect(narrow.out.contains("non-racing"))
        #expect(!narrow.out.contains("crashWindow"))

        let wide = RunCommandTests.bench(arguments + ["--wide"])
        #expect(wide.status == 0, "\(wide.err)")
        #expect(wide.out.contains("crashWindow"))
        #expect(wide.out.contains("notSet"))
        #expect(!wide.out.contains("crashWin "))
    }
}
