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
