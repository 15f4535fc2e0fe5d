package import Synchronization

// The C library: glibc (Linux), Bionic (Android), Darwin (Apple).
#if canImport(Glibc)
package import Glibc
#elseif canImport(Android)
package import Android
#elseif canImport(Darwin)
package import Darwin
#endif

/// The process-wide hook behind the core's ``SchedulePoint``s, reached only through the
/// ``_Scheduled`` sink: a resolver whose process the harness put under a controlled scheduler
/// (``SimulatedProcess/passSchedulePoints(_:)``) runs its internals with that sink, every other one with
/// ``_Unscheduled``, which compiles to the code without points. Set once with ``install(_:)``;
/// every point then calls the controller.
///
/// `package`: only the harness installs a controller; the public API has no way to.
///
/// Thread safety: ``install(_:)`` may race with points on other threads: the flag is atomic and
/// published with release after the controller is stored, and read with acquire before it is.
package enum ScheduleHook {
    /// Whether a controller is installed; never cleared.
    package static let isInstalled = Atomic<Bool>(false)
    /// Written once, before ``isInstalled`` is set; read only after it is seen set. Retained once
    /// and never released (a controller is installed for the rest of the process), so a point
    /// reaches it without a retain and a release: loaded as an existential, it paid both, with
    /// their atomic read-modify-writes, at every point.
    nonisolated(unsafe) private static var installed: Unmanaged<_Installed>?
    /// Serialises installs (the first one wins).
    private static let installLock = Locked(())

    /// Installs `controller` for the rest of the process, unless one is installed already; returns
    /// the controller in force.
    @discardableResult
    package static func install(_ controller: any ScheduleController) -> any ScheduleController {
        installLock.withLock { _ in
            if let current = installed { return current.takeUnretainedValue().controller }
            installed = .passRetained(_Installed(controller))
            isInstalled.store(true, ordering: .releasing)
            return controller
        }
    }

    /// `body` with the installed controller, borrowed; `nil` without one.
    @inline(__always)
    static func withController<Result>(_ body: (any ScheduleController) -> Result) -> Result? {
        guard _slowPath(isInstalled.load(ordering: .acquiring)), let installed else { return nil }
        return installed._withUnsafeGuaranteedRef { body($0.controller) }
    }

    /// The calling thread reached `point`.
    @inline(__always)
    package static func reach(_ point: SchedulePoint) {
        withController { $0.reach(point) }
    }

    /// Whether `fault` is planted for the calling thread (never without a controller).
    @inline(__always)
    package static func plants(_ fault: ConcurrencyFault) -> Bool {
        withController { $0.plants(fault) } ?? false
    }
}

/// How the core's operations reach their schedule points: the queue's public API and a resolver
/// outside a controlled race use ``_Unscheduled`` (no code at all), a resolver in one
/// ``_Scheduled`` (the hook). Generic code over this protocol is specialised for each.
///
/// Thread safety: implementations are stateless values.
@usableFromInline
package protocol _SchedulePoints {
    func reach(_ point: SchedulePoint)
    func plants(_ fault: ConcurrencyFault) -> Bool
}

/// Schedule points that also take `Locked`'s mutex (the resolver's lock): a separate protocol, as
/// `pthread_mutex_t` cannot appear in the queue's inlinable code.
///
/// Thread safety: implementations are stateless values.
package protocol _LockingSchedulePoints: _SchedulePoints {
    /// `Locked`'s acquire of `mutex` (a ``SchedulePoint/lockAcquire``).
    func lock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>)
    /// `Locked`'s release of `mutex` (a ``SchedulePoint/lockRelease``).
    func unlock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>)
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

extension _Unscheduled: _LockingSchedulePoints {
    @inline(__always)
    package func lock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) { pthread_mutex_lock(mutex) }
    @inline(__always)
    package func unlock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) { pthread_mutex_unlock(mutex) }
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

extension _Scheduled: _LockingSchedulePoints {
    @inline(__always)
    package func lock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) {
        if ScheduleHook.withController({ $0.lock(mutex) }) == nil { pthread_mutex_lock(mutex) }
    }
    @inline(__always)
    package func unlock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) {
        if ScheduleHook.withController({ $0.unlock(mutex) }) == nil { pthread_mutex_unlock(mutex) }
    }
}
