// The queue's storage holds raw pointers, which the compiler cannot prove safe to share. It is:
// every word that threads share is an `Atomic`, and every payload access is ordered by a
// release/acquire pair on its slot's sequence (see `PendingLinkQueue`'s "Design"), so a slot's
// payload is only ever touched by the one thread whose turn the sequence grants. The memory lives
// exactly as long as the queue (the storage is a noncopyable member freed in its `deinit`).
extension PendingLinkQueue._Storage: @unchecked Sendable {}
