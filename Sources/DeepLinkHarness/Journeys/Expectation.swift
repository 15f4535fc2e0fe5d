/// The oracle's verdict on one journey.
///
/// Thread safety: a value type; `Sendable`.
package struct Expectation: Sendable {
    /// The expected outcome (never a violation).
    package var outcome: JourneyOutcome
    /// The tap slot whose link must be routed (routed, superseded), or was consumed in the crash
    /// window (crashWindow, where one later route is tolerated). `nil` otherwise.
    package var targetSlot: UInt8?
    /// The step at which the oracle routed, or -1.
    package var routeStep: Int
    /// Per tap slot: bit `s` is set when that link's gate was open after step `s`.
    package var gateMasks: (UInt64, UInt64)
    /// Per tap slot: when the oracle last captured that link (its age counts from here), or the
    /// tap's time when it never captured it.
    package var captureTimes: (UInt32, UInt32)
    /// A link was still pending, unexpired, when the script ended (a generator defect).
    package var endedPending: Bool
    /// A signed link opened again after it routed was refused as `rejected:replayed`.
    package var refusedReplay = false
    /// Another link of the journey expired in the oracle before the route. A strategy that reports
    /// it superseded instead decided it before its time-to-live ran out; which of the two a link
    /// near its expiry gets is not judged (the oracle decides at the route, a strategy may earlier).
    package var otherLinkExpired = false
    /// The step at which the oracle's process died in the crash window (crashWindow), or -1.
    package var crashStep = -1

    /// Whether the gate of the link in `slot` was open after `step`.
    package func gateWasOpen(slot: UInt8, step: Int) -> Bool {
        guard step >= 0, step < 64 else { return false }
        let mask = slot == 0 ? gateMasks.0 : gateMasks.1
        return mask & (1 << UInt64(step)) != 0
    }

    /// When the link in `slot` was captured (or tapped, if never captured).
    package func captureTime(slot: UInt8) -> UInt32 { slot == 0 ? captureTimes.0 : captureTimes.1 }
}
