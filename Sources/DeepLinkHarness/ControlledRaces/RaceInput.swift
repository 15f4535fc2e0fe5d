import DeepLinkCore

#if canImport(Glibc)
import Glibc
#endif

/// One input a race delivers to its ``RaceTarget``: a value, not a closure, so that posting it to
/// the partner allocates nothing (a closure capturing a ~560-byte record is boxed on the heap).
///
/// Thread safety: a value type; `Sendable`.
enum RaceInput: Sendable {
    case launch
    case signal(AppEvent)
    /// A burst of captures of one link.
    case captures(CaptureBurst)
    /// A gate signal, then a burst.
    case signalThenCaptures(AppEvent, CaptureBurst)
    /// A peer strategy's journey step (``LockedPeer``): the peer handles the journey's event.
    case step(Int)
}
