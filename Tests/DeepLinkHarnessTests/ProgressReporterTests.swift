import DeepLinkHarness
import Testing

@Suite struct ProgressReporterTests {
    @Test func styleFollowsTerminalAndQuiet() {
        #expect(ProgressReporter.Style.choose(stderrIsTerminal: true, quiet: false) == .bar)
        #expect(ProgressReporter.Style.choose(stderrIsTerminal: false, quiet: false) == .lines)
        #expect(ProgressReporter.Style.choose(stderrIsTerminal: true, quiet: true) == .quiet)
    }

    @Test func barRedrawsInPlaceWithRateAndETA() throws {
        var reporter = ProgressReporter(total: 1_000_000, style: .bar, startNanos: 0)
        #expect(reporter.update(completed: 10, nowNanos: 50_000_000) == nil, "rate-limited to 100 ms")
        let drawn = reporter.update(completed: 250_000, nowNanos: 1_000_000_000)
        let text = try #require(drawn)
        #expect(text.hasPrefix("\r["))
        #expect(!text.contains("\n"))
        #expect(text.contains("25.0%"))
        #expect(text.contains("250,000/1,000,000 journeys"))
        #expect(text.contains("250.0 k/s"))
        #expect(text.contains("ETA 3s"))
        let finished = reporter.finish(completed: 1_000_000, nowNanos: 2_000_000_000)
        let last = try #require(finished)
        #expect(last.hasSuffix("\n") && last.contains("100.0%"))
        #expect(reporter.finish(completed: 1_000_000, nowNanos: 3_000_000_000) == nil)
    }

    @Test func linesArePeriodicAndComplete() throws {
        var reporter = ProgressReporter(total: 100, style: .lines, startNanos: 0)
        #expect(reporter.update(completed: 1, nowNanos: 1_000_000_000) == nil)
        let printed = reporter.update(completed: 50, nowNanos: 5_000_000_000)
        let line = try #require(printed)
        #expect(line.hasPrefix("progress: 50/100 journeys (50.0%)") && line.hasSuffix("\n"))
        #expect(!line.contains("\r"))
        #expect(reporter.update(completed: 60, nowNanos: 6_000_000_000) == nil)
    }

    @Test func absurdlySlowRatesDoNotTrap() throws {
        var reporter = ProgressReporter(total: .max, style: .lines, startNanos: 0)
        let printed = reporter.update(completed: 1, nowNanos: 1 << 62)
        let line = try #require(printed)
        #expect(line.contains("ETA ?"))
    }

    @Test func quietSaysNothing() {
        var reporter = ProgressReporter(total: 100, style: .quiet, startNanos: 0)
        #expect(reporter.update(completed: 50, nowNanos: 60_000_000_000) == nil)
        #expect(reporter.finish(completed: 100, nowNanos: 70_000_000_000) == nil)
    }

    @Test func monotonicClockAdvances() {
        let first = ProgressReporter.monotonicNanos()
        let second = ProgressReporter.monotonicNanos()
        #expect(second >= first && first > 0)
    }
}
