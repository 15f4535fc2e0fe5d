import DeepLinkHarness
import Testing

@Suite struct OperationClockTests {
    typealias Calibration = OperationClock.Calibration

    @Test func convertsTicksAtTheCalibratedRate() throws {
        // 3 ticks per nanosecond (a 3 GHz counter).
        let threeGHz = try #require(Calibration(counterTicks: 15_000_000, overNanos: 5_000_000))
        #expect(threeGHz.usesCounter)
        #expect(threeGHz.nanos(ticks: 0) == 0)
        // 32.32 fixed point rounds the rate down: at most 1 ns short per 2^32 / 3 ns.
        let second = threeGHz.nanos(ticks: 3_000_000_000)
        #expect(second <= 1_000_000_000 && second >= 999_999_999, "\(second)")
        #expect(threeGHz.nanos(ticks: 300) == 99 || threeGHz.nanos(ticks: 300) == 100)
        // A slow counter (1 tick per 2 ns) scales up.
        let halfGHz = try #require(Calibration(counterTicks: 1_000, overNanos: 2_000))
        #expect(halfGHz.nanos(ticks: 123_456) == 246_912)
        #expect(threeGHz.summary == "tsc, 0.3333 ns per tick")
        #expect(halfGHz.summary == "tsc, 2.0000 ns per tick")
        #expect(Calibration.monotonic.summary == "CLOCK_MONOTONIC")
    }

    @Test func monotonicReadingsAreNanoseconds() {
        #expect(!Calibration.monotonic.usesCounter)
        #expect(Calibration.monotonic.nanos(ticks: 12_345) == 12_345)
        #expect(Calibration.monotonic.nanos(ticks: .max) == .max)
    }

    @Test func rejectsRatesItCannotHold() {
        #expect(Calibration(counterTicks: 0, overNanos: 5_000_000) == nil)
        #expect(Calibration(counterTicks: 5_000_000, overNanos: 0) == nil)
        #expect(Calibration(counterTicks: 1, overNanos: 1 << 32) == nil)
    }

    @Test func saturatesInsteadOfWrapping() throws {
        let slow = try #require(Calibration(counterTicks: 1, overNanos: (1 << 32) - 1))
        #expect(slow.nanos(ticks: .max) == .max)
        #expect(slow.nanos(ticks: 1) == (1 << 32) - 1)
    }

    @Test func usesTheCounterOnlyWhereTheKernelKeepsTimeByIt() {
        #expect(Calibration.measure(clocksource: "kvm-clock", window: 1_000) == .monotonic)
        #expect(Calibration.measure(clocksource: "hpet", window: 1_000) == .monotonic)
        #expect(Calibration.measure(clocksource: nil, window: 1_000) == .monotonic)
        #if arch(x86_64)
        #expect(Calibration.measure(clocksource: "tsc", window: 1_000_000).usesCounter)
        #else
        #expect(Calibration.measure(clocksource: "tsc", window: 1_000_000) == .monotonic)
        #endif
    }

    @Test func aDifferenceEndingBeforeItsStartIsZero() {
        let start = OperationClock.now()
        #expect(OperationClock.nanos(from: start &+ 1_000_000, to: start) == 0)
        #expect(OperationClock.nanos(from: start, to: start) == 0)
    }

    /// The calibrated counter agrees with CLOCK_MONOTONIC over 20 ms: its readings lie inside the
    /// monotonic ones, so it may read short only by a preemption between a pair of reads, and long
    /// only by the calibration's error. Best of three, as a preemption only ever shortens it.
    @Test func agreesWithTheMonotonicClock() {
        var best = 0.0
        for _ in 0..<3 where best < 0.98 {
            let monotonicStart = Runner.monotonicNanos()
            let start = OperationClock.now()
            var monotonicEnd = monotonicStart
            while monotonicEnd &- monotonicStart < 20_000_000 { monotonicEnd = Runner.monotonicNanos() }
            let end = OperationClock.now()
            let monotonicAfter = Runner.monotonicNanos()
            let ratio = Double(OperationClock.nanos(from: start, to: end)) / Double(monotonicAfter &- monotonicStart)
            #expect(ratio <= 1.01, "the operation clock ran \(ratio)x CLOCK_MONOTONIC")
            best = max(best, ratio)
        }
        #expect(
            best >= 0.98,
            "the operation clock ran \(best)x CLOCK_MONOTONIC (calibration: \(OperationClock.calibration))"
        )
    }
}
