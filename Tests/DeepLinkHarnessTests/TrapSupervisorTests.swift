import DeepLinkHarness
import Foundation
import Testing

@Suite struct TrapSupervisorTests {
    /// `deeplink-bench`, built by `swift test` next to the test binary; `DEEPLINK_BENCH_BINARY`
    /// overrides.
    static func benchBinary() -> String? {
        if let override = ProcessInfo.processInfo.environment["DEEPLINK_BENCH_BINARY"] { return override }
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
        let candidates = [Bundle.main.bundlePath + "/deeplink-bench", directory + "/deeplink-bench"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// A core that traps on some journeys does not take the run down: each trapping journey is
    /// reported as `trapped` (with its trace) and every other journey is still judged.
    @Test(.enabled(if: !Sanitizer.isActive && benchBinary() != nil))
    func aTrappingCoreIsReportedJourneyByJourney() throws {
        let root = ReportFixtures.temporaryDirectory("trap-supervisor")
        defer { ReportFixtures.remove(root) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(Self.benchBinary()))
        process.arguments = [
            "run", "--journeys", "9000", "--seed", "3", "--threads", "2", "--strategies", "core,naive",
            "--core-faults", "trap", "--quiet", "--out", root + "/run",
        ]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        // Exit 1: the trapped journeys are core's violations, so its default threshold fails.
        #expect(process.terminationStatus == 1, "\(stderr)")
        // Journeys 7, 4103 and 8199 trap (one in 4,096).
        for journey in [7, 4_103, 8_199] {
            #expect(stderr.contains("on journey \(journey);"), "\(stderr)")
        }
        let report = try ReportReader.read(root + "/run")
        let core = try #require(report.strategies.first { $0.name == "core" })
        #expect(core.journeys == 9_000)
        #expect(core.outcomeTotals["trapped"] == 3)
        #expect(core.violationCount == 3)
        let trappedRows = core.violations.filter { $0.actual == "trapped" }.map(\.journey)
        #expect(trappedRows == [7, 4_103, 8_199])
        let naive = try #require(report.strategies.first { $0.name == "naive" })
        #expect(naive.journeys == 9_000)
        #expect(naive.outcomeTotals["trapped", default: 0] == 0)
    }
}
