import Synchronization

// The C library: glibc (Linux), Bionic (Android, Swift SDK for Android), Darwin (Apple).
#if canImport(Glibc)
import Glibc
#elseif canImport(Android)
import Android
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the resolver reads "now", in nanoseconds, to decide expiry. Injected so that the harness
/// can run journeys on virtual time (``ManualClock``).
///
/// Capture times (``PendingLink/capturedAtNanos``) must be on the same clock: handoffs cross a
/// process relaunch, so a real app uses wall-clock time (``WallClock``).
///
/// Thread safety: implementations must be safe to call from any thread.
package protocol ResolverClock: Sendable {
    /// The current time in nanoseconds. Must not allocate (it is read on the routing path).
    func nowNanos() -> UInt64
}

/// The system's real-time clock (`CLOCK_REALTIME`), which survives a relaunch.
///
/// Thread safety: stateless; `Sendable`.
package struct WallClock: ResolverClock {
    package init() {}

    package func nowNanos() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return UInt64(max(0, spec.tv_sec)) &* 1_000_000_000 &+ UInt64(max(0, spec.tv_nsec))
    }
}

/// Virtual time: it moves only when told to. For simulations and tests.
///
/// Thread safety: an atomic counter; every member may be called from any thread.
package final class ManualClock: ResolverClock {
    private let nanos: Atomic<UInt64>

    package init(nanos: UInt64 = 0) { self.nanos = Atomic(nanos) }

    package func nowNanos() -> UInt64 { nanos.load(ordering: .acquiring) }

    /// Sets the time (it may move backwards, as a device clock can).
    package func set(nanos value: UInt64) { nanos.store(value, ordering: .releasing) }

    /// Moves time forward by `delta` nanoseconds (saturating at `UInt64.max`).
    package func advance(by delta: UInt64) {
        var current = nanos.load(ordering: .relaxed)
        while true {
            let (sum, overflow) = current.addingReportingOverflow(delta)
            let (exchanged, original) = nanos.compareExchange(
                expected: current,
                desired: overflow ? .max : sum,
                ordering: .acquiringAndReleasing
            )
            if exchanged { return }
            current = original
        }
    }
}
