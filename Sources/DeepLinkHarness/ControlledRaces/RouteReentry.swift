import DeepLinkCore
import Synchronization

/// A burst of captures delivered from *inside* the router, while the calling thread holds the
/// resolver's drain role (the app's navigation hands the same link in again, from a second
/// handler): the captures meet a queue nobody drains until the route returns, so its full-queue
/// fallback runs, deterministically. Armed for one journey; fires at most once.
///
/// Thread safety: an atomic flag and a `Locked` (a pthread mutex, which ThreadSanitizer sees); armed by the worker, fired by whichever thread
/// routes.
final class RouteReentry: Sendable {
    private let armed = Atomic<Bool>(false)
    private let pending = Locked<(resolver: LinkResolver, burst: CaptureBurst)?>(nil)

    func arm(_ resolver: LinkResolver, _ burst: CaptureBurst) {
        pending.withLock { $0 = (resolver, burst) }
        armed.store(true, ordering: .releasing)
    }

    func disarm() {
        guard armed.exchange(false, ordering: .acquiringAndReleasing) else { return }
        pending.withLock { $0 = nil }
    }

    /// From the router: delivers the armed burst (once).
    func fire() {
        guard armed.exchange(false, ordering: .acquiringAndReleasing) else { return }
        let work = pending.withLock { pending in
            let work = pending
            pending = nil
            return work
        }
        if let work { work.burst.deliver(to: work.resolver) }
    }
}
