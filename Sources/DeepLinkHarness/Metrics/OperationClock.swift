internal import CCycleCounter

/// The stopwatch for the core's operations (``OperationHistograms``: parse, validate, enqueue,
/// gate-open to route) and for the worker's per-journey and per-pass times (``Worker``): the CPU's
/// time-stamp counter where the kernel itself keeps time by it, else `CLOCK_MONOTONIC`.
///
/// Why not `CLOCK_MONOTONIC` throughout: on the project's VMs a vDSO read costs about what a
/// referrer parse costs, and `core` reads the clock several times per journey, a cost `naive` never
/// pays, with part of a read inside every operation latency. A counter read (`rdtsc`) costs less
/// (the commit that introduced this type has the measurements).
///
/// When the counter is used: on x86-64 when the kernel's clocksource is `tsc`, i.e. the kernel
/// found the counter invariant and synchronised across CPUs and keeps `CLOCK_MONOTONIC` by it.
/// Anywhere else (another clocksource, another architecture) a reading *is* `CLOCK_MONOTONIC`
/// nanoseconds. Readings are unserialised: an operation's ends may move by the few instructions
/// the CPU runs out of order, well under the histograms' 0.1% at these latencies' size.
///
/// Readings are only for differences (``nanos(from:to:)``): a reading means nothing on its own,
/// and a difference whose end is before its start (two CPUs' counters a few ticks apart) is 0.
///
/// Thread safety: stateless after the one calibration (a `static let`, made once, on first use,
/// by whichever thread gets there first); any thread may read.
package enum OperationClock {
    /// How readings become nanoseconds.
    package struct Calibration: Sendable, Equatable {
        /// Whether readings are counter ticks (else they are `CLOCK_MONOTONIC` nanoseconds).
        package var usesCounter: Bool
        /// Nanoseconds per tick in 32.32 fixed point (`1 << 32`: a reading is nanoseconds).
        package var nanosPerTickFixed: UInt64

        /// Readings in nanoseconds (`CLOCK_MONOTONIC`).
        package static let monotonic = Calibration(usesCounter: false, nanosPerTickFixed: 1 << 32)

        /// Counter ticks, `nanos` nanoseconds having passed over `ticks` ticks (nil when either is
        /// 0, or the rate is beyond 2^32 ns per tick).
        package init?(counterTicks ticks: UInt64, overNanos nanos: UInt64) {
            guard ticks > 0, nanos > 0, nanos < 1 << 32 else { return nil }
            self.init(usesCounter: true, nanosPerTickFixed: (nanos << 32) / ticks)
        }

        init(usesCounter: Bool, nanosPerTickFixed: UInt64) {
            self.usesCounter = usesCounter
            self.nanosPerTickFixed = nanosPerTickFixed
        }

        /// What `manifest.json` records as `operation_clock`: `tsc, 0.3571 ns per tick` or
        /// `CLOCK_MONOTONIC`.
        package var summary: String {
            guard usesCounter else { return "CLOCK_MONOTONIC" }
            let nanosPerTick = Double(nanosPerTickFixed) / 4_294_967_296
            return "tsc, \(ReportSchema.decimal(nanosPerTick, digits: 4)) ns per tick"
        }

        /// A reading, for ``nanos(from:to:)``.
        @inline(__always)
        package func now() -> UInt64 {
            usesCounter ? deeplink_cycle_counter() : Runner.monotonicNanos()
        }

        /// Nanoseconds from reading `start` to reading `end`; 0 when `end` is before `start`.
        @inline(__always)
        package func nanos(from start: UInt64, to end: UInt64) -> UInt64 {
            end > start ? nanos(ticks: end &- start) : 0
        }

        /// Nanoseconds since reading `start`.
        @inline(__always)
        package func nanos(since start: UInt64) -> UInt64 {
            nanos(from: start, to: now())
        }

        /// `ticks` in nanoseconds (rounded down; saturates at `UInt64.max`).
        package func nanos(ticks: UInt64) -> UInt64 {
            let (high, low) = ticks.multipliedFullWidth(by: nanosPerTickFixed)
            guard high >> 32 == 0 else { return .max }
            return high << 32 | low >> 32
        }

        /// How this machine's readings are made: the counter when `clocksource` (the kernel's
        /// current one) is `tsc` and the counter exists, timed against `CLOCK_MONOTONIC` over
        /// `window` nanoseconds; else ``monotonic``.
        package static func measure(clocksource: String?, window: UInt64 = 5_000_000) -> Calibration {
            guard deeplink_cycle_counter_exists() != 0, clocksource == "tsc" else { return .monotonic }
            let startNanos = Runner.monotonicNanos()
            let startTicks = deeplink_cycle_counter()
            var endNanos = startNanos
            while endNanos &- startNanos < window { endNanos = Runner.monotonicNanos() }
            let endTicks = deeplink_cycle_counter()
            guard endTicks > startTicks else { return .monotonic }
            return Calibration(counterTicks: endTicks &- startTicks, overNanos: endNanos &- startNanos) ?? .monotonic
        }
    }

    /// This machine's calibration, made on first use (~5 ms). A hot loop holds a copy (a stored
    /// `let`) and reads through it: every access to this `static let` calls `swift_once`, which
    /// cost `core` ~80 instructions per journey over its ~8 readings.
    package static let calibration = Calibration.measure(clocksource: currentClocksource())

    /// A reading, for ``nanos(from:to:)`` (``Calibration/now()`` of ``calibration``).
    package static func now() -> UInt64 { calibration.now() }

    /// Nanoseconds from reading `start` to reading `end`; 0 when `end` is before `start`.
    package static func nanos(from start: UInt64, to end: UInt64) -> UInt64 {
        calibration.nanos(from: start, to: end)
    }

    /// The kernel's current clocksource (`tsc`, `kvm-clock`, …), or nil when it cannot be read.
    static func currentClocksource() -> String? {
        guard let text = ResourceUsage.readTextFile("/sys/devices/system/clocksource/clocksource0/current_clocksource")
        else { return nil }
        return text.split(whereSeparator: \.isWhitespace).first.map(String.init)
    }
}
