package import DeepLinkCore

/// One step of a controlled race: the logical thread that passed a schedule point.
///
/// Thread safety: a value type; `Sendable`.
package struct ScheduleStep: Sendable, Equatable {
    /// The logical thread (0: the worker's input, 1: the partner's).
    package var thread: UInt8
    package var point: SchedulePoint

    package var pointName: String { point.name }
}

/// How a controlled race ended when it did not simply finish.
///
/// Thread safety: a value type; `Sendable`.
package enum ScheduleHang: Sendable, Equatable {
    /// Every unfinished logical thread was blocked (on a lock another one held).
    case deadlock
    /// The race passed its step bound (``RaceTurns/stepBound``) without finishing.
    case livelock

    package var name: String {
        switch self {
        case .deadlock: "deadlock"
        case .livelock: "livelock"
        }
    }
}
