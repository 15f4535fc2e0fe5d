import Synchronization

// How the resolver decides and carries out (see ``LinkResolver``'s "How it decides"): the lock, the
// capture queue, the drain role and the effects its holder performs outside the lock.
extension LinkResolver {
    /// In a live process, under the lock: admits queued captures, then runs `body` (an event, or
    /// time passing) on the machine. A drain is requested only when something is left to carry
    /// out; inputs that arrive later count themselves.
    ///
    /// One lock round trip per decision: when this thread becomes the drainer, it takes the first
    /// effect in the same critical section (no other thread pops while it holds the role, so the
    /// head it takes is the one a fresh lock would give it).
    @inline(__always)
    func decide<Points: _LockingSchedulePoints>(_ points: Points, _ body: (inout _Core, UInt64) -> Void) {
        let now = clock.nowNanos()
        var drains = false
        var popped = ResolverStateMachine.Decision.none
        var more = false
        core.withLock(points) { core in
            core.pull(from: queue, now: now, points)
            body(&core, now)
            guard core.hasWork, takesDrainRole(points) else { return }
            drains = true
            popped = core.popEffect(into: drainScratch)
            more = core.hasWork
        }
        guard drains else { return }
        perform(popped, on: drainScratch, points)
        // Exactly one input was counted when this thread took the role (its own), and the
        // effects of all earlier ones were visible to the pop above.
        drain(points, observed: 1, more: more)
    }

    /// Hands `link` to the machine. With no drainer, this capture stages the link itself under the
    /// lock, as a signal applies its event (no copy into the queue and out again, and the drain
    /// role only if staging left something to carry out); while another thread drains, it does not
    /// wait for the lock: the link goes through the lock-free queue.
    ///
    /// The record travels by address, the address of the capture's own record: a closure that
    /// captured the record would copy it whole into its context first.
    @inline(__always)  // into both ways in, each specialised for its points
    func admit<Points: _LockingSchedulePoints>(
        _ link: UnsafePointer<PendingLink>,
        consumedBefore: Bool,
        _ points: Points
    ) {
        // A stale answer either way is safe: the locked path is always correct, and a queued link
        // counts itself once it is visible. A capture the store knew as consumed always takes the
        // locked path: the queue carries no verdict (queued links were saved).
        if !consumedBefore {
            points.reach(.workLoad)
            guard work.load(ordering: .relaxed) == 0 else { return enqueue(link, points) }
        }
        var admission = _Core.Admission.staged
        decide(points) { core, now in
            admission = core.admit(link, consumedBefore: consumedBefore, orQueueIn: queue, now: now, points)
        }
        if admission == .full {
            fullQueueCaptures.add(1, ordering: .relaxed)
            report(.queueFull, .queueFull(link.pointee))
        }
    }

    /// ``admit(_:_:)`` while another thread may drain: through the lock-free queue, or (queue
    /// full) directly.
    @inline(__always)
    func enqueue<Points: _LockingSchedulePoints>(_ link: UnsafePointer<PendingLink>, _ points: Points) {
        switch queue._tryEnqueue(copyingFrom: link, points) {
        case .enqueued:
            break
        case .full:
            fullQueueCaptures.add(1, ordering: .relaxed)
            let now = clock.nowNanos()
            let admitted = core.withLock(points) { core in
                core.pull(from: queue, now: now, points)
                return core.admitDirectly(link, consumedBefore: false, now: now, points)
            }
            if !admitted { report(.queueFull, .queueFull(link.pointee)) }
        }
        requestDrain(points)
    }

    /// Counts one input; the caller that finds no drainer becomes it.
    func requestDrain<Points: _LockingSchedulePoints>(_ points: Points) {
        if takesDrainRole(points) { drain(points) }
    }

    /// Counts one input; true when no thread held the drain role, which is then the caller's.
    @inline(__always)
    func takesDrainRole<Points: _LockingSchedulePoints>(_ points: Points) -> Bool {
        points.reach(.workIncrement)
        return work.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue == 0
    }

    /// Runs while this thread holds the drain role: carries out every action until it can give the
    /// role back with nothing left behind.
    func drain<Points: _LockingSchedulePoints>(_ points: Points) {
        points.reach(.workLoad)
        drain(points, observed: work.load(ordering: .acquiring), more: true)
    }

    /// ``drain(_:)`` once `observed` inputs are counted; `more` is false when the outbox and the
    /// queue were empty at the last pop (after which those inputs' effects were visible).
    func drain<Points: _LockingSchedulePoints>(_ points: Points, observed initial: Int, more initialMore: Bool) {
        var observed = initial
        var more = initialMore
        while true {
            while more {
                let now = clock.nowNanos()
                // Popped in place into the scratch effect: one copy of the record on its way out.
                let popped = core.withLock(points) { core in
                    core.pull(from: queue, now: now, points)
                    let popped = core.popEffect(into: drainScratch)
                    // When this was the last one (and the queue is empty), carrying it out is all
                    // that is left: anything that arrives meanwhile counts itself in `work`.
                    more = core.hasWork
                    return popped
                }
                guard popped != .none else { break }
                perform(popped, on: drainScratch, points)
            }
            points.reach(.workRelease)
            if points.plants(.drainerSkipsRecheck) { return work.store(0, ordering: .releasing) }
            let remaining = work.subtract(observed, ordering: .acquiringAndReleasing).newValue
            if remaining == 0 { return }
            observed = remaining
            more = true
        }
    }

    /// Carries out `decision` on the record at `scratch` (outside the lock).
    func perform<Points: _LockingSchedulePoints>(
        _ decision: ResolverStateMachine.Decision,
        on scratch: UnsafeMutablePointer<PendingLink>,
        _ points: Points
    ) {
        guard decision != .none, process.isAlive else { return }
        // The record's one copy on its way out of the scratch: the compiler copies a record read
        // through a pointer before every call it is passed to, so it is read once, into a borrowed
        // parameter that every call below forwards without a copy.
        carryOut(decision, on: scratch.pointee, points)
    }

    /// ``perform(_:on:_:)`` of `decision` on `link`.
    func carryOut<Points: _LockingSchedulePoints>(
        _ decision: ResolverStateMachine.Decision,
        on link: borrowing PendingLink,
        _ points: Points
    ) {
        switch decision {
        case .none:
            return
        case .route:
            // The check and the mark in one store call: only the call that wrote the mark routes.
            let marked: Bool
            do throws(HandoffStoreError) {
                points.reach(.storeMarkConsumed)
                marked = try store.markConsumed(link)
            } catch {
                reportStoreFailure(link, operation: .markConsumed, error: error)
                return
            }
            guard process.isAlive else {
                // Killed around the consumed mark: if it landed, the link is lost (crash window);
                // if not, it is still pending in the store and the next launch routes it.
                if marked, let crashWindowObserver { crashWindowObserver.resolverKilledInCrashWindow(copy link) }
                return
            }
            // Consumed elsewhere since it was staged (another process): its record is gone.
            guard marked || points.plants(.forgetRoutedRing) else {
                return report(.duplicate, about: link, ResolverDecision.duplicate)
            }
            switch router.route(link) {
            case .handled:
                report(.routed, about: link, ResolverDecision.routed)
            case .notReady:
                declined(link, points)
            }
        case .supersede(_, let newerID), .supersedeIncoming(let newerID):
            discard(link, points)
            report(.superseded, about: link) { .superseded($0, byID: newerID) }
        case .expire:
            discard(link, points)
            let now = clock.nowNanos()
            let capturedAt = link.capturedAtNanos
            let age = now > capturedAt ? now - capturedAt : 0
            report(.expired, about: link) { .expired($0, ageNanos: age) }
        case .ignoreDuplicate(let discardRecord):
            if discardRecord { discard(link, points) }
            report(.duplicate, about: link, ResolverDecision.duplicate)
        case .waitForGate(_, let missing):
            report(.waitingForGate, about: link) { .waitingForGate($0, missing: missing) }
        case .holdForAccount:
            report(.heldForAccount, about: link, ResolverDecision.heldForAccount)
        }
    }

    /// Reports a decision of `kind` to the observer, building it only if the observer wants it.
    @inline(__always)
    func report(_ kind: ResolverDecision.Kinds, _ decision: @autoclosure () -> ResolverDecision) {
        if interests.contains(kind) { observer.resolverDecided(decision()) }
    }

    /// ``report(_:_:)`` of a decision about `link`, a borrowed record (which a closure cannot
    /// capture): `decision` gets a copy of it, made only if the observer wants the decision.
    @inline(__always)
    func report(
        _ kind: ResolverDecision.Kinds,
        about link: borrowing PendingLink,
        _ decision: (PendingLink) -> ResolverDecision
    ) {
        if interests.contains(kind) { reportCopying(link, decision) }
    }

    /// The copy ``report(_:about:_:)`` makes. Out of line: inlined, the compiler makes the copy on
    /// entry to the caller, on every call, wanted or not.
    @inline(never)
    func reportCopying(_ link: borrowing PendingLink, _ decision: (PendingLink) -> ResolverDecision) {
        observer.resolverDecided(decision(copy link))
    }

    /// The router did not handle `link`: the store gets it back as pending and the machine holds
    /// it until the next signal. Runs on the drainer; a staging outcome (a supersede) is carried
    /// out by this same drain.
    func declined<Points: _LockingSchedulePoints>(_ link: borrowing PendingLink, _ points: Points) {
        do throws(HandoffStoreError) {
            points.reach(.storeRestore)
            try store.restorePending(link)
        } catch {
            // Still pending in this process; only a kill before it routes would lose it.
            reportStoreFailure(link, operation: .restorePending, error: error)
        }
        guard process.isAlive else { return }
        let hasWork = withUnsafePointer(to: link) { link in
            core.withLock(points) { core in
                core.restage(declined: link)
                return core.hasWork
            }
        }
        report(.routeDeclined, about: link, ResolverDecision.routeDeclined)
        // The drain role is this thread's: counting one more input keeps it draining.
        if hasWork { requestDrain(points) }
    }

    func discard<Points: _LockingSchedulePoints>(_ link: borrowing PendingLink, _ points: Points) {
        do throws(HandoffStoreError) {
            points.reach(.storeDiscard)
            try store.discard(link)
        } catch {
            reportStoreFailure(link, operation: .discard, error: error)
        }
    }
}
