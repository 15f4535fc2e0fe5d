import DeepLinkCore
import Synchronization

/// The app's navigation: records the links it handled (which catalog link, during which step). In
/// a journey whose router is not ready (``Journey/routerNotReady``) it answers `notReady` to the
/// first offer, as an app whose screen is not there yet; the resolver must offer it again.
///
/// Thread safety: the resolver serializes router calls, and the calls update the record under the
/// core's `Locked` (a pthread mutex, which ThreadSanitizer sees; a race partner may make them). The
/// worker resets the record before the journey and reads it after (before any race started and
/// after it ended, which the partner's hand-offs order), without the lock: `@unchecked Sendable`.
final class RecordingRouter: Router, @unchecked Sendable {
    struct Record {
        var observation = StrategyObservation()
        var candidates: (UInt8, UInt8) = (0, 0)
        var twice = false
        var late = false
        /// The next offer is declined (once per journey).
        var notReady = false
    }

    /// Behind a pointer: the lock makes the access exclusive, so a class property's dynamic
    /// exclusivity check is not needed.
    private let record: UnsafeMutablePointer<Record>
    private let lock = Locked(())
    let step = Atomic<Int>(0)
    let routes = Atomic<Int>(0)
    /// The last route's ``OperationClock`` reading (for `gate_open_to_route`), by ``stopwatch``.
    let lastRouteReading = Atomic<UInt64>(0)
    /// The strategy's ``OperationClock`` calibration, held (a reading is not a `swift_once` call).
    let stopwatch = OperationClock.calibration
    /// Captures the app's navigation hands in again from inside a route (racing journeys).
    let reentry = RouteReentry()
    /// A decline whose retry signal the app has not sent yet.
    let retryDue = Atomic<Bool>(false)

    /// Whether the app owes a signal for a declined link (and now sends it).
    /// A load first: the worker asks at every step, and an exchange (a locked read-modify-write)
    /// is only needed when a decline is due.
    func takeRetry() -> Bool {
        retryDue.load(ordering: .acquiring) && retryDue.exchange(false, ordering: .acquiringAndReleasing)
    }

    var count: Int { routes.load(ordering: .acquiring) }

    init() {
        record = .allocate(capacity: 1)
        record.initialize(to: Record())
    }

    deinit {
        record.deinitialize(count: 1)
        record.deallocate()
    }

    /// Worker only, while no race partner runs.
    func reset(journey: Journey, twice: Bool, late: Bool) {
        record.pointee.observation = StrategyObservation()
        record.pointee.candidates = journey.links
        record.pointee.twice = twice
        record.pointee.late = late
        record.pointee.notReady = journey.routerNotReady
        routes.store(0, ordering: .releasing)
        retryDue.store(false, ordering: .releasing)
    }

    func route(_ pending: PendingLink) -> RouteResult {
        let calledAt = stopwatch.now()
        let step = step.load(ordering: .relaxed)
        let record = self.record
        let handled = lock.withLock { _ in Self.handle(pending, step: step, in: &record.pointee) }
        if handled {
            lastRouteReading.store(calledAt, ordering: .relaxed)
            routes.add(1, ordering: .releasing)
        } else {
            retryDue.store(true, ordering: .releasing)
        }
        // Declined or not, the app may hand the link in again while it is offered.
        reentry.fire()
        return handled ? .handled : .notReady
    }

    /// Records a route of `pending` (or declines it, once, in a journey whose router is not ready).
    /// Called under the lock.
    static func handle(_ pending: PendingLink, step: Int, in record: inout Record) -> Bool {
        if record.notReady {
            record.notReady = false
            return false
        }
        let candidates = record.candidates
        let id = pending.link.withUTF8Bytes { CoreStrategy.catalogID(of: $0, candidates: candidates) }
        if id == LinkCatalog.unknownID { record.observation.auditFinding = .unknownLink }
        if pending.source == .installReferrer, !CoreStrategy.carriesItsCampaign(pending, candidates: candidates) {
            record.observation.auditFinding = .attributionLost
        }
        let routedAt = record.late ? step + 1 : step
        record.observation.route(link: id, step: routedAt)
        if record.twice { record.observation.route(link: id, step: routedAt) }
        return true
    }

    /// Worker only, after the journey (and any race partner) finished.
    func copy(into observation: inout StrategyObservation) {
        let recorded = record.pointee.observation
        for index in 0..<min(recorded.routeCount, StrategyObservation.capacity) {
            observation.route(link: recorded.routeLinks[index], step: Int(recorded.routeSteps[index]))
        }
        if recorded.routeCount > StrategyObservation.capacity {
            observation.routeCount += recorded.routeCount - StrategyObservation.capacity
        }
        if let finding = recorded.auditFinding { observation.auditFinding = finding }
    }
}
