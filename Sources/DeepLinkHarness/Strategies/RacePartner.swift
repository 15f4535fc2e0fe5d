import DeepLinkCore
import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One input a race delivers to the resolver: a value, not a closure, so that posting it to the
/// partner allocates nothing (a closure capturing a ~560-byte record is boxed on the heap).
///
/// Thread safety: a value type; `Sendable`.
enum RaceInput: Sendable {
    case launch
    case signal(AppEvent)
    /// A burst of captures of one link.
    case captures(CaptureBurst)
    /// A gate signal, then a burst.
    case signalThenCaptures(AppEvent, CaptureBurst)

    func deliver(to resolver: LinkResolver) {
        switch self {
        case .launch: _ = try? resolver.launch()
        case .signal(let event): resolver.signal(event)
        case .captures(let burst): burst.deliver(to: resolver)
        case .signalThenCaptures(let event, let burst):
            resolver.signal(event)
            burst.deliver(to: resolver)
        }
    }
}

/// `copies` captures of one link back to back: under new ids when `newIDs` (as Play re-delivers a
/// referrer: copy `c` gets id `id + idOffset + 1000 c`), otherwise under its own id (as a handoff
/// or universal link read again).
///
/// Thread safety: a value type; `Sendable`.
struct CaptureBurst: Sendable {
    var link: PendingLink
    var copies: Int
    var newIDs: Bool
    var idOffset: UInt64

    func deliver(to resolver: LinkResolver) {
        var copy = link
        for index in 0..<max(1, copies) {
            if newIDs { copy.id = link.id &+ idOffset &+ UInt64(index) &* 1_000 }
            resolver.capture(copy)
        }
    }
}

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

/// A dedicated thread that delivers one input at the same moment as its owner delivers another,
/// so that two inputs reach the resolver from two threads at once.
///
/// The owner posts the partner's input and wakes it (a semaphore: no CPU burnt between races);
/// both then spin (yielding) on a shared start flag, run their closures, and the owner waits
/// (yielding) until the partner is done. A partner that does not wake in time is bypassed: the
/// owner withdraws the task (compare-and-swap, so it runs exactly once) and runs it itself.
///
/// Thread safety: ``race(_:_:)`` and ``stop()`` are called by the owning worker only.
final class RacePartner: Sendable {
    private let wake = DispatchSemaphore(value: 0)
    private let task = Locked<(resolver: LinkResolver, input: RaceInput)?>(nil)
    /// 0 idle, 1 posted, 2 partner ready, 3 go, 4 partner done, -1 stop.
    private let phase = Atomic<Int>(0)

    init() {
        // A trap on the partner thread is the owning worker's journey.
        let beacon = UInt(bitPattern: TrapHandler.currentBeacon())
        let thread = Thread { [self] in
            TrapHandler.adopt(UnsafeMutableRawPointer(bitPattern: beacon))
            self.loop()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    private func loop() {
        while true {
            wake.wait()
            if phase.load(ordering: .acquiring) == -1 { return }
            // Take the posted task; a task the owner withdrew (it gave up waiting) is not run.
            guard phase.compareExchange(expected: 1, desired: 2, ordering: .acquiringAndReleasing).exchanged else {
                continue
            }
            let work = task.withLock { $0 }
            while phase.load(ordering: .acquiring) == 2 { sched_yield() }
            if phase.load(ordering: .acquiring) == -1 { return }
            if let work { work.input.deliver(to: work.resolver) }
            phase.store(4, ordering: .releasing)
        }
    }

    /// Delivers `mine` here and `theirs` on the partner thread, released together. If the partner
    /// does not pick the task up within a second (an overloaded machine), the owner withdraws it
    /// and delivers both itself, one after the other: slower, never lost or run twice.
    func race(on resolver: LinkResolver, mine: RaceInput, theirs: RaceInput) {
        task.withLock { $0 = (resolver, theirs) }
        phase.store(1, ordering: .releasing)
        wake.signal()
        let deadline = Runner.monotonicNanos() &+ 1_000_000_000
        while phase.load(ordering: .acquiring) != 2 {
            sched_yield()
            if Runner.monotonicNanos() > deadline,
                phase.compareExchange(expected: 1, desired: 0, ordering: .acquiringAndReleasing).exchanged
            {
                task.withLock { $0 = nil }
                mine.deliver(to: resolver)
                theirs.deliver(to: resolver)
                return
            }
        }
        phase.store(3, ordering: .releasing)
        mine.deliver(to: resolver)
        while phase.load(ordering: .acquiring) != 4 { sched_yield() }
        task.withLock { $0 = nil }
        phase.store(0, ordering: .releasing)
    }

    /// Ends the partner thread.
    func stop() {
        phase.store(-1, ordering: .releasing)
        wake.signal()
    }
}
