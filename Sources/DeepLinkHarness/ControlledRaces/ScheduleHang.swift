/// How a controlled race ended when it did not simply finish.
///
/// Thread safety: a value type; `Sendable`.
package enum ScheduleHang: UInt8, Sendable, Equatable, CaseNamed {
    /// Every unfinished logical thread was blocked (on a lock another one held).
    case deadlock
    /// The race passed its step bound (``RaceTurns/stepBound``) without finishing.
    case livelock

    package static let names = caseNames()
}
