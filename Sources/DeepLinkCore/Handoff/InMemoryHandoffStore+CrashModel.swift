/// A write operation of a ``HandoffStore``.
///
/// Thread safety: a value type; `Sendable`.
public enum HandoffOperation: Sendable, Hashable, CaseIterable {
    case save
    case markConsumed
    case discard
}

/// A step of an ``InMemoryHandoffStore`` at which the simulated process dies.
///
/// Each store operation is atomic (it persists entirely or not at all), so a kill can land only
/// before or after one. `after markConsumed` is the crash window: the link is marked consumed and
/// the router has not been called.
///
/// Thread safety: a value type; `Sendable`.
public struct KillPoint: Sendable, Hashable {
    /// The store operations a kill can be placed around.
    public typealias Operation = HandoffOperation

    /// Whether the kill lands before the operation (it does not persist) or after it (it does).
    public enum Timing: Sendable, Hashable, CaseIterable {
        case before
        case after
    }

    public var operation: Operation
    public var timing: Timing
    /// Which occurrence of `operation` (1 = the first) triggers the kill.
    public var occurrence: Int

    public init(_ timing: Timing, _ operation: Operation, occurrence: Int = 1) {
        self.operation = operation
        self.timing = timing
        self.occurrence = occurrence
    }
}

/// What an ``InMemoryHandoffStore`` had persisted when its process died: the records and consumed
/// marks a relaunch starts from (``InMemoryHandoffStore/init(relaunchingFrom:process:)``).
///
/// Thread safety: a value type; `Sendable`.
public struct HandoffImage: Sendable, Hashable {
    /// Pending records, oldest capture first.
    public var pending: [PendingLink]
    /// Consumed marks, oldest first.
    public var consumed: [CaptureIdentity]
    /// The record capacity of the store that wrote this image.
    public var capacity: Int
    /// The consumed-mark capacity of the store that wrote this image.
    public var consumedCapacity: Int
    /// The link whose consumed mark was the last write before an armed ``KillPoint`` at
    /// `after markConsumed`: it was never routed (the crash window). `nil` for other kills.
    public var killedInCrashWindow: PendingLink?

    public init(
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
