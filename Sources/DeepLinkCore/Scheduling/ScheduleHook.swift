package import Synchronization

/// The process-wide hook behind the core's ``SchedulePoint``s: unset (the default, and every
/// build an app ships), each point is one relaxed load and a branch that is never taken; set once
/// with ``install(_:)``, every point calls the controller.
///
/// `package`: only the harness installs a controller; the public API has no way to.
///
/// Thread safety: ``install(_:)`` may race with points on other threads: the flag is atomic and
/// published with release after the controller is stored, and read with acquire before it is.
package enum ScheduleHook {
    /// Whether a controller is installed; never cleared.
    package static let isInstalled = Atomic<Bool>(false)
    /// Written once, before ``isInstalled`` is set; read only after it is seen set.
    nonisolated(unsafe) private static var installed: (any ScheduleController)?
    /// Serialises installs (the first one wins).
    private static let installLock = Locked(())

    /// Installs `controller` for the rest of the process, unless one is installed already; returns
    /// the controller in force.
    @discardableResult
    package static func install(_ controller: any ScheduleController) -> any ScheduleController {
        installLock.withLock { _ in
            if let current = Self.controller { return current }
            installed = controller
            isInstalled.store(true, ordering: .releasing)
            return controller
        }
    }

    /// The installed controller, if any.
    @inline(__always)
    package static var controller: (any ScheduleController)? {
        guard _slowPath(isInstalled.load(ordering: .acquiring)) else { return nil }
        return installed
    }

    /// The calling thread reached `point`.
    @inline(__always)
    package static func reach(_ point: SchedulePoint) {
        if let controller { controller.reach(point) }
    }

    /// Whether `fault` is planted for the calling thread (never without a controller).
    @inline(__always)
    package static func plants(_ fault: ConcurrencyFault) -> Bool {
        if let controller { return controller.plants(fault) }
        return false
    }
}

/// How the queue's operations reach their schedule points: the public API uses
/// ``_Unscheduled`` (no code at all), the resolver ``_Scheduled`` (the hook).
///
/// Thread safety: implementations are stateless values.
@usableFromInline
package protocol _SchedulePoints {
    func reach(_ point: SchedulePoint)
    func plants(_ fault: ConcurrencyFault) -> Bool
}

/// No schedule points: the queue's public operations compile exactly as without them.
@usableFromInline
package struct _Unscheduled: _SchedulePoints {
    @inlinable @inline(__always)
    package init() {}
    @inlinable @inline(__always)
    package func reach(_ point: SchedulePoint) {}
    @inlinable @inline(__always)
    package func plants(_ fault: ConcurrencyFault) -> Bool { false }
}

/// Schedule points through ``ScheduleHook``.
@usableFromInline
package struct _Scheduled: _SchedulePoints {
    @inline(__always)
    package init() {}
    @usableFromInline @inline(__always)
    package func reach(_ point: SchedulePoint) { ScheduleHook.reach(point) }
    @usableFromInline @inline(__always)
    package func plants(_ fault: ConcurrencyFault) -> Bool { ScheduleHook.plants(fault) }
}
