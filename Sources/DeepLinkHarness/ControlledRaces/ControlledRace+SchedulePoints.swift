import DeepLinkCore

#if canImport(Glibc)
import Glibc
#endif

/// The calls of ``ControlledScheduling`` (with the race's lock not held): each reports an event to
/// ``RaceTurns`` and does what its ``RaceTurns/Action`` says.
extension ControlledRace {
    func plants(_ fault: ConcurrencyFault) -> Bool { faults & (1 << fault.rawValue) != 0 }

    @inline(__always)  // into ControlledScheduling's point: one call per point
    func reach(_ point: SchedulePoint, thread: Int) {
        if onFibers { reachOnFiber(point, thread: thread) } else { reachOnThread(point, thread: thread) }
    }

    /// ``reach(_:thread:)`` on a fiber: the race's logical threads take turns on this OS thread, so
    /// there is no lock to take and nobody to wake, and most points just proceed.
    @inline(__always)
    private func reachOnFiber(_ point: SchedulePoint, thread: Int) {
        switch turns.reach(point, by: thread) {
        case .runUnscheduled, .proceed, .runFree:
            return
        case .passTurn, .abandon:
            awaitTurn(thread)
        }
    }

    /// ``reach(_:thread:)`` on an OS thread, under the race's lock.
    @inline(never)
    private func reachOnThread(_ point: SchedulePoint, thread: Int) {
        acquire()
        defer { release() }
        let action = turns.reach(point, by: thread)
        if action != .runUnscheduled { progress.add(1, ordering: .relaxed) }
        switch action {
        case .runUnscheduled, .proceed:
            return
        case .runFree:
            announce()
        case .passTurn, .abandon:
            announce()
            awaitTurn(thread)
        }
    }

    func lock(_ lock: UnsafeMutablePointer<pthread_mutex_t>, thread: Int) {
        reach(.lockAcquire, thread: thread)
        while pthread_mutex_trylock(lock) != 0 {
            acquire()
            switch turns.block(thread, on: UnsafeMutableRawPointer(lock)) {
            case .runUnscheduled:
                release()
                pthread_mutex_lock(lock)
                return
            case .runFree:
                announce()
                release()
                pthread_mutex_lock(lock)
                return
            case .abandon:
                // This fiber is never resumed.
                awaitTurn(thread)
                release()
                pthread_mutex_lock(lock)
                return
            case .passTurn:
                announce()
                awaitTurn(thread)
                release()
            case .proceed:
                release()
            }
        }
    }

    func unlock(_ lock: UnsafeMutablePointer<pthread_mutex_t>, thread: Int) {
        pthread_mutex_unlock(lock)
        acquire()
        turns.release(UnsafeMutableRawPointer(lock))
        release()
        reach(.lockRelease, thread: thread)
    }

    func finish(_ thread: Int) {
        acquire()
        defer { release() }
        deliveredOn[thread] = onFibers ? fibers?.identity(thread) ?? 0 : pthread_self()
        turns.finish(thread)
        announce()
    }

    /// With the lock held: waits until the token is `thread`'s (on fibers: yields to the owner's
    /// stack, which resumes this fiber when it is; an abandoned race's fibers are never resumed).
    @inline(never)  // most points proceed, and do not pay for its frame
    private func awaitTurn(_ thread: Int) {
        guard onFibers, let fibers else {
            waitForTurn(thread)
            return
        }
        release()
        fibers.yield(thread)
        acquire()
    }
}
