/// A concurrency bug planted in the core on purpose, for tests of the harness's controlled
/// scheduler: each switch is read at a schedule point, only while a ``ScheduleController`` is
/// installed and says the calling thread plants it, so it is off (and free) otherwise.
///
/// `package`: not part of the public API.
///
/// Thread safety: a value type; `Sendable`.
@usableFromInline
package enum ConcurrencyFault: UInt8, CaseIterable, Sendable {
    /// The drainer lets go of the drain role without re-checking for work that arrived meanwhile
    /// (it zeroes the work counter instead of subtracting what it observed): a capture counted
    /// after its last pull is stranded.
    case drainerSkipsRecheck
    /// The resolver forgets what it routed: its ring of routed links, and the consumed mark's
    /// answer that the same capture was marked before (the store's one-step check would refuse
    /// the second route on its own): a re-delivery that races the route is routed again.
    case forgetRoutedRing
    /// The queue's consumer takes a position a producer has claimed but not yet published, and
    /// reads its slot.
    case consumerReadsUnpublished
}
