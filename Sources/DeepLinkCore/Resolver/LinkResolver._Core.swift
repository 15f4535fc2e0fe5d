extension LinkResolver {
    /// What the resolver's lock guards: the state machine and the outbox of actions it produced
    /// that the drainer has not carried out yet.
    ///
    /// Bounds, so that the preallocated outbox never overflows: every link admitted from the queue
    /// raises `terminalActions + pendingCount` by at most one, and admission stops at
    /// `terminalBudget` (twice the pending capacity, so a full pending set still admits a newer
    /// link that supersedes the oldest). Waiting notices are coalesced when two follow each other,
    /// so at most one sits between two terminal actions: the outbox needs `2 * terminalBudget + 2`.
    ///
    /// Thread safety: only touched inside `core.withLock`.
    struct _Core: ~Copyable {
        var machine: ResolverStateMachine
        /// A ring, owned by this core alone (it is `~Copyable`): a buffer rather than an array, so
        /// that a push or pop pays no uniqueness check.
        private var outbox: UnsafeMutableBufferPointer<_Effect>
        private var head = 0
        private var count = 0
        private var terminalActions = 0
        private let terminalBudget: Int
        /// Whether the last ``pull(from:store:now:_:)`` stopped for lack of room, leaving links in the
        /// queue that only a later pull (after some effects are carried out) admits.
        private var pullBlocked = false

        /// Whether the observer hears of waiting and held links: when it does not, the notices are
        /// not queued at all (each would copy its record into the outbox and out again for nothing).
        private let queuesWaitNotices: Bool
        private let queuesHoldNotices: Bool

        init(machine: ResolverStateMachine, interests: ResolverDecision.Kinds) {
            self.machine = machine
            self.queuesWaitNotices = interests.contains(.waitingForGate)
            self.queuesHoldNotices = interests.contains(.heldForAccount)
            self.terminalBudget = 2 * machine.pendingCapacity
            assert(_isPOD(_Effect.self), "the outbox is freed without deinitializing its effects")
            self.outbox = .allocate(capacity: 2 * terminalBudget + 2)
            self.outbox.initialize(repeating: _Effect())
        }

        deinit {
            // Effects are plain bytes (PendingLink holds no references): nothing to deinitialize.
            outbox.deallocate()
        }

        /// Whether one more link may enter the machine without risking the outbox.
        var canAdmit: Bool { terminalActions + machine.pendingCount < terminalBudget }

        /// Moves queued captures into the machine while there is room. Only called under the lock,
        /// so the queue has one consumer at a time.
        mutating func pull<Points: _LockingSchedulePoints>(
            from queue: PendingLinkQueue,
            now: UInt64,
            _ points: Points
        ) {
            while canAdmit {
                // Staged straight from its queue slot (a borrow): no copy of the record on the way.
                // The count first: even an empty dequeue costs more than two loads. A stale zero
                // only defers a link whose producer is about to request a drain anyway (its `work`
                // increment, after its publish, makes the next pull see it).
                let staged =
                    queue._approximateCount(points) > 0
                    && queue._tryDequeueSingleConsumer(points) { link in
                        // Queued links were saved: their capture found no consumed mark.
                        stage(link, consumedBefore: false, now: now)
                    } != nil
                guard staged else {
                    pullBlocked = false
                    return
                }
                decide(now: now, points)
            }
            pullBlocked = true
        }

        /// Whether a drainer has anything to do: effects waiting, or queued links the last pull
        /// could not admit.
        var hasWork: Bool { count > 0 || pullBlocked }

        /// Feeds `link` straight to the machine (queue full). Returns false when there is no room.
        /// `consumedBefore`: what the capture's save answered (the store knew it as consumed).
        mutating func admitDirectly<Points: _LockingSchedulePoints>(
            _ link: UnsafePointer<PendingLink>,
            consumedBefore: Bool,
            now: UInt64,
            _ points: Points
        ) -> Bool {
            guard canAdmit else { return false }
            stage(link, consumedBefore: consumedBefore, now: now)
            decide(now: now, points)
            return true
        }

        /// What ``admit(_:orQueueIn:store:now:_:)`` did with a link.
        enum Admission {
            /// Staged in the machine.
            case staged
            /// No room in the machine: queued for a later pull (``hasWork`` says so).
            case queued
            /// No room in the machine or the queue: the link waits in the store only.
            case full
        }

        /// Stages `link` (a capture under the lock) or, with no room for it, queues it behind the
        /// links the last pull left, for the drain that makes room. (A queued link is staged as
        /// saved: for one the store knew as consumed, the consumed mark before its route refuses
        /// it instead.)
        mutating func admit<Points: _LockingSchedulePoints>(
            _ link: UnsafePointer<PendingLink>,
            consumedBefore: Bool,
            orQueueIn queue: PendingLinkQueue,
            now: UInt64,
            _ points: Points
        ) -> Admission {
            if admitDirectly(link, consumedBefore: consumedBefore, now: now, points) { return .staged }
            switch queue._tryEnqueue(copyingFrom: link, points) {
            case .enqueued:
                pullBlocked = true
                return .queued
            case .full:
                return .full
            }
        }

        /// Stages every link of `links` and then decides once (a launch's load): a gate opening on
        /// another thread cannot fall between two of them. The admission bound does not apply to a
        /// batch (a store may hold more links than the budget); the outbox grows instead, which
        /// allocates only for a load larger than any seen before.
        mutating func admitBatch<Points: _LockingSchedulePoints>(
            _ links: [PendingLink],
            now: UInt64,
            _ points: Points
        ) {
            // Each staged link adds at most one terminal action or one pending link; deciding turns
            // each pending link into one terminal action with at most one waiting notice between.
            reserveOutbox(free: 2 * (links.count + machine.pendingCapacity) + 2)
            // An index loop: `for link in links` allocates an iterator per call in debug builds.
            links.withUnsafeBufferPointer { links in
                // A loaded link is pending: the store left out what was consumed.
                for index in links.indices { stage(links.baseAddress! + index, consumedBefore: false, now: now) }
            }
            decide(now: now, points)
        }

        /// Puts a link the router declined back into the machine (deferred to the next signal) and
        /// queues the outcome of putting it back, if any. Exempt from the admission bound (the
        /// route it replaces left the outbox already, and another thread may have admitted a link
        /// since): the outbox grows if it must.
        mutating func restage(declined link: UnsafePointer<PendingLink>) {
            reserveOutbox(free: 2)
            queueCaptureOutcome(machine.restageDecision(declined: link), of: link)
        }

        /// Applies `event` and queues every decision it leads to.
        mutating func signal<Points: _LockingSchedulePoints>(_ event: AppEvent, now: UInt64, _ points: Points) {
            machine.apply(event)
            decide(now: now, points)
        }

        /// Queues every decision the machine makes now (time passed, or after an input).
        mutating func decide<Points: _LockingSchedulePoints>(now: UInt64, _ points: Points) {
            while true {
                let decision = machine.nextDecision(now: now, points)
                switch decision {
                case .none:
                    return
                case .ignoreDuplicate, .supersedeIncoming:
                    preconditionFailure("nextDecision never reports a staging outcome")
                case .waitForGate(let slot, _):
                    if queuesWaitNotices { push(decision, recordAt: slot) }
                    return _checkNoticeEndsStep(now: now, points)
                case .holdForAccount(let slot):
                    if queuesHoldNotices { push(decision, recordAt: slot) }
                    return _checkNoticeEndsStep(now: now, points)
                case .route(let slot), .supersede(let slot, _), .expire(let slot):
                    push(decision, recordAt: slot)
                }
            }
        }

        /// A waiting notice is always a step's last decision (nothing changed since the machine
        /// made it, and it reports each notice once), so ``decide(now:_:)`` stops there rather than
        /// scan the pending set again. Checked in debug builds.
        @inline(__always)
        private mutating func _checkNoticeEndsStep<Points: _LockingSchedulePoints>(now: UInt64, _ points: Points) {
            #if DEBUG
            precondition(machine.nextDecision(now: now, points) == .none, "a decision followed a waiting notice")
            #endif
        }

        /// `index` (less than twice the outbox's size) as a position in the ring. Not `%`: a
        /// division on every push and pop.
        @inline(__always)
        private func wrapped(_ index: Int) -> Int { index >= outbox.count ? index - outbox.count : index }

        /// Grows the outbox (keeping its order) until `free` more actions fit.
        private mutating func reserveOutbox(free: Int) {
            guard outbox.count - count < free else { return }
            let grown = UnsafeMutableBufferPointer<_Effect>.allocate(capacity: count + free)
            grown.initialize(repeating: _Effect())
            for offset in 0..<count { grown[offset] = outbox[wrapped(head + offset)] }
            outbox.deallocate()
            outbox = grown
            head = 0
        }

        /// Moves the oldest effect not carried out yet out of the outbox: its record into `link`,
        /// written in place (copied once on its way out), and returns its decision. Returns
        /// ``ResolverStateMachine/Decision/none``, writing nothing, when there is none.
        mutating func popEffect(into link: UnsafeMutablePointer<PendingLink>) -> ResolverStateMachine.Decision {
            guard count > 0 else { return .none }
            // The vacated entry is not cleared: effects hold no references (PendingLink is plain
            // bytes), and `count` says which entries are live.
            let entry = outbox.baseAddress! + head
            PendingLink._assign(link, compactlyFrom: _Effect.link(of: entry))
            let decision = entry.pointee.decision
            head = wrapped(head + 1)
            count -= 1
            if decision.isTerminal { terminalActions -= 1 }
            return decision
        }

        /// A new process's core: the machine reset, the outbox empty; nothing allocates.
        mutating func reset() {
            machine.reset()
            clearOutbox()
            head = 0
        }

        mutating func clearOutbox() {
            count = 0
            terminalActions = 0
            pullBlocked = false
        }

        /// Stages `link` in the machine and queues the capture's own outcome, if any (a duplicate,
        /// or a supersede or expiry when the pending set is full).
        private mutating func stage(_ link: UnsafePointer<PendingLink>, consumedBefore: Bool, now: UInt64) {
            queueCaptureOutcome(machine.stageDecision(link, consumedBefore: consumedBefore, now: now), of: link)
        }

        /// Queues what staging (or restaging) `link` decided: nothing, an outcome for `link`
        /// itself (a duplicate, or pushed out on arrival), or a supersede (or expiry) of the slot
        /// it displaced. Staging never routes or waits.
        @inline(__always)
        private mutating func queueCaptureOutcome(
            _ decision: ResolverStateMachine.Decision,
            of link: UnsafePointer<PendingLink>
        ) {
            switch decision {
            case .none:
                return
            case .ignoreDuplicate, .supersedeIncoming:
                let index = reserveEntry(terminal: true)
                outbox[index].decision = decision
                PendingLink._assign(_Effect.link(of: outbox.baseAddress! + index), compactlyFrom: link)
            case .supersede(let slot, _), .expire(let slot):
                push(decision, recordAt: slot)
            case .route, .waitForGate, .holdForAccount:
                preconditionFailure("staging never routes or waits")
            }
        }

        /// Queues `decision` with the record of machine slot `slot`, which goes from the slot straight
        /// into the outbox entry.
        private mutating func push(_ decision: ResolverStateMachine.Decision, recordAt slot: Int) {
            let index = reserveEntry(terminal: decision.isTerminal)
            outbox[index].decision = decision
            machine.record(at: slot, into: _Effect.link(of: outbox.baseAddress! + index))
        }

        /// The index of a new outbox entry for an effect (a waiting notice right after another one
        /// replaces it instead).
        private mutating func reserveEntry(terminal: Bool) -> Int {
            if !terminal, count > 0 {
                let tail = wrapped(head + count - 1)
                switch outbox[tail].decision {
                case .waitForGate, .holdForAccount: return tail
                default: break
                }
            }
            precondition(count < outbox.count, "resolver outbox overflow: admission bound broken")
            let index = wrapped(head + count)
            count += 1
            if terminal { terminalActions += 1 }
            return index
        }
    }

    /// One decision waiting to be carried out, with its own copy of the link (the machine's slot
    /// may be reused before the drainer gets to it).
    ///
    /// Thread safety: a value type; only moved under the resolver's lock and then used by the
    /// drainer alone.
    struct _Effect: Sendable {
        /// What to do; a slot number in it means nothing here (the link is ``link``).
        var decision: ResolverStateMachine.Decision = .none
        var link = PendingLink.placeholder

        /// The address of the record of the effect at `effect`.
        static func link(of effect: UnsafeMutablePointer<_Effect>) -> UnsafeMutablePointer<PendingLink> {
            (UnsafeMutableRawPointer(effect) + MemoryLayout<_Effect>.offset(of: \.link)!)
                .assumingMemoryBound(to: PendingLink.self)
        }
    }
}

extension PendingLink {
    /// A record that stands for no link (`/`, id 0): fills preallocated slots before use.
    static let placeholder = PendingLink(
        link: ._root,
        source: .appClip,
        capturedAtNanos: 0,
        id: 0
    )
}
