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
        private var outbox: [ResolverStateMachine.Action]
        private var head = 0
        private var count = 0
        private var terminalActions = 0
        private let terminalBudget: Int

        init(machine: ResolverStateMachine) {
            self.machine = machine
            self.terminalBudget = 2 * machine.pendingCapacity
            self.outbox = Array(repeating: .none, count: 2 * terminalBudget + 2)
        }

        /// Whether one more link may enter the machine without risking the outbox.
        var canAdmit: Bool { terminalActions + machine.pendingCount < terminalBudget }

        /// Moves queued captures into the machine while there is room. Only called under the lock,
        /// so the queue has one consumer at a time.
        mutating func pull(from queue: PendingLinkQueue, store: any HandoffStore, now: UInt64) {
            while canAdmit, let link = queue.tryDequeueSingleConsumer() {
                record(machine.capture(link, now: now, consumedBefore: store.wasConsumed(link)), now: now)
            }
        }

        /// Feeds `link` straight to the machine (queue full). Returns false when there is no room.
        mutating func admitDirectly(_ link: PendingLink, store: any HandoffStore, now: UInt64) -> Bool {
            guard canAdmit else { return false }
            record(machine.capture(link, now: now, consumedBefore: store.wasConsumed(link)), now: now)
            return true
        }

        /// Stages every link of `links` and then decides once (a launch's load): a gate opening on
        /// another thread cannot fall between two of them. The admission bound does not apply to a
        /// batch (a store may hold more links than the budget); the outbox grows instead, which
        /// allocates only for a load larger than any seen before.
        mutating func admitBatch(_ links: [PendingLink], store: any HandoffStore, now: UInt64) {
            // Each staged link adds at most one terminal action or one pending link; deciding turns
            // each pending link into one terminal action with at most one waiting notice between.
            reserveOutbox(free: 2 * (links.count + machine.pendingCapacity) + 2)
            // An index loop: `for link in links` allocates an iterator per call in debug builds.
            for index in links.indices {
                _ = push(machine.stage(links[index], consumedBefore: store.wasConsumed(links[index])))
            }
            record(machine.nextAction(now: now), now: now)
        }

        /// Grows the outbox (keeping its order) until `free` more actions fit.
        private mutating func reserveOutbox(free: Int) {
            guard outbox.count - count < free else { return }
            var grown = [ResolverStateMachine.Action](repeating: .none, count: count + free)
            for offset in 0..<count { grown[offset] = outbox[(head + offset) % outbox.count] }
            outbox = grown
            head = 0
        }

        /// Appends `first` and every further action of the same step to the outbox.
        mutating func record(_ first: ResolverStateMachine.Action, now: UInt64) {
            // No local copy of the (~560-byte) action: each one goes straight into the outbox.
            guard push(first) else { return }
            while push(machine.nextAction(now: now)) {}
        }

        /// Moves the oldest action not carried out yet into `action` (`.none` when there is none):
        /// written in place, so the record is copied once on its way out.
        mutating func popAction(into action: inout ResolverStateMachine.Action) {
            guard count > 0 else {
                action = .none
                return
            }
            // The vacated entry is not cleared: actions hold no references (PendingLink is plain
            // bytes), and `count` says which entries are live.
            action = outbox[head]
            head = (head + 1) % outbox.count
            count -= 1
            switch action {
            case .route, .supersede, .expire, .ignoreDuplicate:
                terminalActions -= 1
            case .none, .waitForGate:
                break
            }
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
        }

        /// Appends `action` to the outbox; false (and nothing appended) for `.none`.
        private mutating func push(_ action: ResolverStateMachine.Action) -> Bool {
            switch action {
            case .none:
                return false
            case .waitForGate:
                push(action, terminal: false)
            case .route, .supersede, .expire, .ignoreDuplicate:
                push(action, terminal: true)
            }
            return true
        }

        private mutating func push(_ action: ResolverStateMachine.Action, terminal: Bool) {
            if !terminal, count > 0 {
                let tail = (head + count - 1) % outbox.count
                if case .waitForGate = outbox[tail] {
                    outbox[tail] = action
                    return
                }
            }
            precondition(count < outbox.count, "resolver outbox overflow: admission bound broken")
            outbox[(head + count) % outbox.count] = action
            count += 1
            if terminal { terminalActions += 1 }
        }
    }
}
