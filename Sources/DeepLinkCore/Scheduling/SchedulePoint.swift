/// A named synchronisation point of the core's concurrent paths: an atomic operation of
/// ``PendingLinkQueue`` or of ``LinkResolver``, an acquire or release of the resolver's lock
/// (`Locked`), or a store call on the capture or route path.
///
/// A controlled scheduler (the harness's `--schedule`, see Docs/Scheduling.md) decides at each
/// point which logical thread runs next. Outside a controlled race the points are not there at
/// all: the code is specialised over ``_Unscheduled``.
///
/// `package`: not part of the public API.
///
/// Thread safety: a value type; `Sendable`.
@usableFromInline
package enum SchedulePoint: UInt8, CaseIterable, Sendable {
    /// The queue: a producer's relaxed load of the enqueue position (tail).
    case queueTailLoad
    /// The queue: a consumer's relaxed load of the dequeue position (head).
    case queueHeadLoad
    /// The queue: the acquire load of a slot's sequence word.
    case queueSequenceLoad
    /// The queue: the compare-exchange that claims a position.
    case queueClaim
    /// The queue: the single consumer's plain store of the head.
    case queueHeadStore
    /// The queue: a producer's release store that publishes a slot.
    case queuePublish
    /// The queue: a consumer's release store that frees a slot.
    case queueFree
    /// The queue: the relaxed loads of ``PendingLinkQueue/approximateCount``.
    case queueCount
    /// The resolver: the increment of its work counter (a drain request).
    case workIncrement
    /// The resolver: the drainer's load of its work counter.
    case workLoad
    /// The resolver: the drainer's subtraction from its work counter (letting go of the role).
    case workRelease
    /// The resolver: a launch taking the launch buffer's flag.
    case launchFlagTake
    /// The resolver: a launch giving the flag back.
    case launchFlagRelease
    /// The resolver's lock (`Locked`): before acquiring the mutex.
    case lockAcquire
    /// The resolver's lock (`Locked`): after releasing the mutex.
    case lockRelease
    /// Capture path: `saveUnlessConsumed`.
    case storeSave
    /// Launch path: `loadPending`.
    case storeLoad
    /// Route path: `markConsumed`.
    case storeMarkConsumed
    /// Route path: `restorePending` (a declined route).
    case storeRestore
    /// Route path: `discard`.
    case storeDiscard

    /// The point's name in traces and `coverage.csv`.
    package var name: String {
        switch self {
        case .queueTailLoad: "queue_tail_load"
        case .queueHeadLoad: "queue_head_load"
        case .queueSequenceLoad: "queue_sequence_load"
        case .queueClaim: "queue_claim"
        case .queueHeadStore: "queue_head_store"
        case .queuePublish: "queue_publish"
        case .queueFree: "queue_free"
        case .queueCount: "queue_count"
        case .workIncrement: "work_increment"
        case .workLoad: "work_load"
        case .workRelease: "work_release"
        case .launchFlagTake: "launch_flag_take"
        case .launchFlagRelease: "launch_flag_release"
        case .lockAcquire: "lock_acquire"
        case .lockRelease: "lock_release"
        case .storeSave: "store_save"
        case .storeLoad: "store_load"
        case .storeMarkConsumed: "store_mark_consumed"
        case .storeRestore: "store_restore"
        case .storeDiscard: "store_discard"
        }
    }
}
