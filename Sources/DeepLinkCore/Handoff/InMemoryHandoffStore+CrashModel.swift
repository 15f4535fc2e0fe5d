// The in-memory store's crash model: simulation only, `package` access (the harness and the
// core's tests use it; an app never sees it).

/// A step of an ``InMemoryHandoffStore`` at which the simulated process dies.
///
/// Each store operation is atomic (it persists entirely or not at all), so a kill can land only
/// before or after one. `after markConsumed` is the crash window: the link is marked consumed and
/// the router has not been called.
///
/// Thread safety: a value type; `Sendable`.
package struct KillPoint: Sendable, Hashable {
    /// The store operations a kill can be placed around.
    package typealias Operation = HandoffOperation

    /// Whether the kill lands before the operation (it does not persist) or after it (it does).
    package enum Timing: Sendable, Hashable, CaseIterable {
        case before
        case after
    }

    package var operation: Operation
    package var timing: Timing
    /// Which occurrence of `operation` after arming (1 = the next one) triggers the kill.
    package var occurrence: Int

    package init(_ timing: Timing, _ operation: Operation, occurrence: Int = 1) {
        self.operation = operation
        self.timing = timing
        self.occurrence = occurrence
    }
}

/// What an ``InMemoryHandoffStore`` had persisted when its process died: the records and consumed
/// marks a relaunch starts from (``InMemoryHandoffStore/init(relaunchingFrom:process:)``).
///
/// Thread safety: a value type; `Sendable`.
package struct HandoffImage: Sendable, Hashable {
    /// Pending records, oldest capture first.
    package var pending: [PendingLink]
    /// Consumed marks, oldest first.
    package var consumed: [CaptureIdentity]
    /// The record capacity of the store that wrote this image.
    package var capacity: Int
    /// The consumed-mark capacity of the store that wrote this image.
    package var consumedCapacity: Int
    /// The link whose consumed mark was the last write before an armed ``KillPoint`` at
    /// `after markConsumed`: it was never routed (the crash window). `nil` for other kills.
    package var killedInCrashWindow: PendingLink?

    package init(
        pending: [PendingLink] = [],
        consumed: [CaptureIdentity] = [],
        capacity: Int = 16,
        consumedCapacity: Int = 64,
        killedInCrashWindow: PendingLink? = nil
    ) {
        self.pending = pending
        self.consumed = consumed
        self.capacity = capacity
        self.consumedCapacity = consumedCapacity
        self.killedInCrashWindow = killedInCrashWindow
    }
}
