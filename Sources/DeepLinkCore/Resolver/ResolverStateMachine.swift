/// The resolver's decisions as a value type with no side effects: it never touches the store, the
/// router, a clock or a lock. ``LinkResolver`` feeds it facts (a captured link and whether the
/// store saw it consumed; an app event; the current time) and carries out the actions it returns.
///
/// ## Rules
/// - *Never early*: a link is routed only when every event its ``RoutePolicy`` requires (always
///   including `appReady`) is satisfied; `loggedOut` closes the gate again.
/// - *Its own account*: a link bound to an account (``PendingLink/account``) also requires
///   `loggedIn`, and routes only while ``loggedInAccount`` is that account; under another login
///   (or a plain ``AppEvent/loggedIn``, which names none) it waits, reported once as
///   ``Action/holdForAccount(_:)``.
/// - *Latest wins*: only the newest pending link (greatest capture time, then latest arrival) is a
///   candidate. When its gate opens, every older pending link is superseded first, then it is
///   routed. Older links wait behind a newer one whose gate is closed.
/// - *Expiry*: a pending link whose age (`now - capturedAtNanos`, saturating) exceeds the
///   time-to-live is expired before anything else is decided.
/// - *Duplicates*: a capture that is the same capture (``CaptureIdentity``) as a pending or routed
///   link, or that the store reports consumed, is ignored.
/// - *Capacity*: at most `pendingCapacity` links wait; a capture into a full set supersedes the
///   oldest of them (or itself, when it is the oldest), or expires it when it is already past its
///   time-to-live (expiry comes first).
///
/// ## Driving it
/// Every event (``capture(_:now:consumedBefore:)``, ``signal(_:now:)``, ``tick(now:)``) returns
/// the first ``Action``; call ``nextAction(now:)`` until it returns
/// ``Action/none`` to get the rest of that step's decisions. Each pending link ends in exactly one
/// terminal action: `route`, `supersede`, `expire` or `ignoreDuplicate`. A waiting notice
/// (`waitForGate`, `holdForAccount`) is always the last action of its step.
///
/// Thread safety: a value type with no shared state; confine each instance to one thread or guard
/// it with a lock (``LinkResolver`` keeps it behind one).
///
/// - Complexity: every event is O(`pendingCapacity` + `routedMemory`); nothing allocates after
///   `init` (slots are preallocated and mutated in place).
package struct ResolverStateMachine: Sendable {
    /// Where the process is in its life.
    package enum State: Sendable, Hashable {
        /// Launched, `appReady` not yet signalled: links collect, nothing routes.
        /// `satisfied` holds the events signalled so far (never `appReady`).
        case starting(satisfied: GateEvents)
        /// `appReady` was signalled: a link routes as soon as its own requirements are met.
        /// `satisfied` always contains `appReady`.
        case ready(satisfied: GateEvents)
    }

    /// The process's state.
    package private(set) var state: State
    /// The account of the current session: set by ``AppEvent/loggedInAs(_:)``, cleared by
    /// ``AppEvent/loggedIn`` (a session that names no account) and ``AppEvent/loggedOut``.
    package private(set) var loggedInAccount: AccountID?
    /// Whether the simulated process was killed: every input is then ignored, nothing is decided
    /// (simulation only; ``reset()`` clears it).
    package private(set) var isKilled = false

    /// The policy deciding each link's requirements.
    package let policy: RoutePolicy
    /// Links older than this (in nanoseconds) expire.
    package let timeToLiveNanos: UInt64

    var slots: [Slot]
    /// The record of each occupied slot (set whenever `slots[i]` is occupied; a vacated slot keeps
    /// its stale record, plain bytes that nothing reads, rather than paying a copy to clear it). A
    /// link is copied in once when it enters and out once when it leaves.
    var links: [PendingLink]
    /// Number of occupied `slots`.
    package internal(set) var pendingCount: Int
    var arrivals: UInt64 = 0
    /// Ring of recently routed links, so a re-delivery that races the store's consumed mark is
    /// still caught (the store catches everything older).
    var routed: [Slot?]
    /// The identity of each `routed` entry, or a stale one where the entry is `nil`: the duplicate
    /// check of every capture scans these 16 bytes per entry, not a whole optional slot.
    var routedIdentities: [CaptureIdentity]
    /// How many `routedIdentities` entries hash to each bucket: their ids in the first
    /// ``_routedBuckets`` counts, their nonzero install-begin timestamps in the rest. A capture
    /// whose buckets are all zero matches no entry, so most captures skip the scan; a nonzero
    /// count only sends a capture to it (the scan alone decides).
    var routedBucketCounts: [UInt32]
    var routedNext: Int = 0
    /// How many `routed` entries from the start may be non-nil (the ring fills from index 0): a
    /// relaunch clears only those, not the whole ring.
    var routedUsed: Int = 0
    /// The last waiting notice, so that one is reported only when something changed.
    var lastWait: CaptureIdentity?
    var lastWaitMissing: GateEvents = []
    /// Whether some slot may be marked `deferred` (set with the mark; `apply` clears both), so
    /// that a signal scans the slots only after a decline.
    var mayHoldDeferred = false

    /// Creates a machine in ``State/starting(satisfied:)`` with nothing pending.
    ///
    /// - Parameters:
    ///   - policy: the app's route policy: which events each path waits for.
    ///   - timeToLiveNanos: how long after its capture a link may still route.
    ///   - pendingCapacity: how many links may wait at once (at least 1).
    ///   - routedMemory: how many routed links to remember in memory for duplicate checks (at
    ///     least 1; older ones are known to the store).
    package init(
        policy: RoutePolicy,
        timeToLiveNanos: UInt64,
        pendingCapacity: Int = 8,
        routedMemory: Int = 16
    ) {
        self.state = .starting(satisfied: [])
        self.policy = policy
        self.timeToLiveNanos = timeToLiveNanos
        self.slots = Array(repeating: Slot(), count: max(1, pendingCapacity))
        // One more than the slots: the spare parks a link pushed out of a full set.
        self.links = Array(repeating: .placeholder, count: max(1, pendingCapacity) + 1)
        self.pendingCount = 0
        self.routed = Array(repeating: nil, count: max(1, routedMemory))
        self.routedIdentities = Array(repeating: CaptureIdentity(id: 0, installBeginTimestamp: 0), count: routed.count)
        self.routedBucketCounts = Array(repeating: 0, count: 2 * Self._routedBuckets)
        // The placeholder identities: id 0, no timestamp.
        routedBucketCounts[Self._routedBucket(of: 0)] = UInt32(routed.count)
    }

    /// How many links may wait at once.
    package var pendingCapacity: Int { slots.count }

    /// Back to the state `init` made (a new process: nothing pending, nothing remembered, no event
    /// signalled), keeping the preallocated slots: allocates nothing.
    package mutating func reset() {
        state = .starting(satisfied: [])
        loggedInAccount = nil
        isKilled = false
        // Only what was used: most relaunches find nothing pending and nothing routed, and each
        // loop would pay the array's uniqueness check for nothing.
        if pendingCount > 0 {
            for index in slots.indices { slots[index].occupied = false }
            pendingCount = 0
        }
        arrivals = 0
        for index in 0..<routedUsed { routed[index] = nil }
        routedUsed = 0
        routedNext = 0
        lastWait = nil
        lastWaitMissing = []
        _checkInvariants()
    }

    /// The events signalled so far.
    package var satisfiedEvents: GateEvents {
        switch state {
        case .starting(let satisfied), .ready(let satisfied): satisfied
        }
    }

    /// The pending links, in no particular order (allocates; for tests and inspection).
    package var pendingLinks: [PendingLink] { slots.indices.filter { slots[$0].occupied }.map { links[$0] } }

    // MARK: - Events

    /// A link was captured. `consumedBefore`: the store knew it as consumed
    /// (``HandoffStore/saveUnlessConsumed(_:)`` answered false).
    package mutating func capture(_ link: PendingLink, now: UInt64, consumedBefore: Bool) -> Action {
        let immediate = stage(link, consumedBefore: consumedBefore, now: now)
        if case .none = immediate { return nextAction(now: now) }
        return immediate
    }

    /// Adds `link` to the pending set *without deciding*: returns only the capture's own outcome (a
    /// duplicate, or a supersede when the set is full), never a route or a waiting notice. Stage a
    /// batch of links (everything a launch found in the store), then call ``nextAction(now:)``:
    /// the batch is decided as one step, so a gate that opens meanwhile sees all of it and routes
    /// only the newest (latest wins), never an older link that happened to be staged first.
    package mutating func stage(_ link: PendingLink, consumedBefore: Bool) -> Action {
        stage(link, consumedBefore: consumedBefore, now: 0)
    }

    /// ``stage(_:consumedBefore:)`` at `now`, which decides whether a link pushed out of a full
    /// set is expired or superseded.
    private mutating func stage(_ link: PendingLink, consumedBefore: Bool, now: UInt64) -> Action {
        switch withUnsafePointer(to: link, { stageDecision($0, consumedBefore: consumedBefore, now: now) }) {
        case .none: .none
        case .ignoreDuplicate(let discardRecord): .ignoreDuplicate(link, discardRecord: discardRecord)
        case .supersedeIncoming(let newerID): .supersede(link, byID: newerID)
        case .supersede(let slot, let newerID): .supersede(links[slot], byID: newerID)
        case .expire(let slot): .expire(links[slot])
        case .route, .waitForGate, .holdForAccount:
            preconditionFailure("staging never routes or waits")
        }
    }

    /// ``stage(_:consumedBefore:)`` naming links instead of carrying copies: `.none` (staged),
    /// ``Decision/ignoreDuplicate(discardRecord:)`` or ``Decision/supersedeIncoming(byID:)`` about
    /// `link` itself, or ``Decision/supersede(slot:byID:)`` of the pending link it pushed out of a
    /// full set, parked in the spare slot (see ``record(at:into:)``).
    /// ``stage(_:consumedBefore:)``'s rules for the record at `link` (read in place: the resolver
    /// stages records straight from its queue's slots).
    ///
    /// `now`: a full set pushes out its oldest link (or the incoming one); a link already past its
    /// time-to-live then is expired, not superseded (*expiry* is decided before anything else). 0
    /// (a saturated age) ages nothing.
    mutating func stageDecision(_ link: UnsafePointer<PendingLink>, consumedBefore: Bool, now: UInt64 = 0) -> Decision {
        guard !isKilled else { return .none }
        defer { _checkInvariants() }
        let identity = CaptureIdentity(link.pointee)
        if let routedID = routedID(matching: identity) {
            // A copy under the routed link's own id has no record of its own to drop (and the
            // routed link's record may be restored if the router declines it).
            return .ignoreDuplicate(discardRecord: routedID != identity.id)
        }
        if consumedBefore { return .ignoreDuplicate(discardRecord: true) }
        for index in slots.indices where slots[index].occupied {
            if identity.isSameCapture(as: slots[index].identity) {
                return .ignoreDuplicate(discardRecord: slots[index].identity.id != identity.id)
            }
        }
        arrivals &+= 1
        var requires = PendingLink._withLinkStorage(of: link) { policy.requirements(forPathIn: $0, count: $1) }
        let boundToAccount = link.pointee.account != nil
        if boundToAccount { requires.insert(.loggedIn) }
        let slot = Slot(
            capturedAtNanos: link.pointee.capturedAtNanos,
            identity: identity,
            requires: requires,
            arrival: arrivals,
            boundToAccount: boundToAccount
        )
        if let free = indexOfFreeSlot() {
            slots[free] = slot
            storeRecord(link, at: free)
            pendingCount += 1
            return .none
        }
        // Full: the oldest of the pending links and the new one loses (expired, if it is).
        let oldest = indexOfOldest()!
        let spare = links.count - 1
        if Self.isNewer(slots[oldest], than: slot) {
            guard isExpired(slot, now: now) else {
                return .supersedeIncoming(byID: slots[indexOfNewest()!].identity.id)
            }
            // Parked in the spare slot, as a displaced link is, so that the expiry carries it.
            storeRecord(link, at: spare)
            return .expire(slot: spare)
        }
        let expired = isExpired(slots[oldest], now: now)
        links.swapAt(oldest, spare)
        slots[oldest] = slot
        storeRecord(link, at: oldest)
        return expired ? .expire(slot: spare) : .supersede(slot: spare, byID: identity.id)
    }

    private mutating func storeRecord(_ link: UnsafePointer<PendingLink>, at slot: Int) {
        links.withUnsafeMutableBufferPointer { links in
            PendingLink._assign(links.baseAddress! + slot, compactlyFrom: link)
        }
    }

    /// The app signalled `event`.
    package mutating func signal(_ event: AppEvent, now: UInt64) -> Action {
        apply(event)
        return nextAction(now: now)
    }

    /// Records `event` in the state without deciding anything (``signal(_:now:)`` minus its first
    /// decision); nothing happens once killed.
    mutating func apply(_ event: AppEvent) {
        guard !isKilled else { return }
        // Any signal offers declined links again (the scan only after a decline: signals are hot).
        if mayHoldDeferred {
            for index in slots.indices where slots[index].deferred { slots[index].deferred = false }
            mayHoldDeferred = false
        }
        var satisfied = satisfiedEvents
        switch event {
        case .appReady:
            satisfied.insert(.appReady)
        case .loggedIn, .loggedInAs:
            satisfied.insert(.loggedIn)
        case .loggedOut:
            satisfied.remove(.loggedIn)
        case .custom(let custom):
            satisfied.insert(.custom(custom))
        }
        switch event {
        case .loggedInAs(let account):
            loggedInAccount = account
        case .loggedIn, .loggedOut:
            // Checked first: clearing writes the whole 66-byte optional, on every login signal.
            if loggedInAccount != nil { loggedInAccount = nil }
        case .appReady, .custom:
            break
        }
        // `appReady` is sticky, and it is what makes the process ready.
        state = satisfied.contains(.appReady) ? .ready(satisfied: satisfied) : .starting(satisfied: satisfied)
    }

    /// Time passed (virtual or real): expire what is due and decide again.
    package mutating func tick(now: UInt64) -> Action {
        nextAction(now: now)
    }

    /// Simulation: the process dies. Pending links are forgotten here (they survive in the
    /// store) and every later input is ignored until ``reset()``.
    package mutating func kill() {
        guard !isKilled else { return }
        isKilled = true
        for index in slots.indices { slots[index].occupied = false }
        pendingCount = 0
        lastWait = nil
    }

    /// The next decision of the current step, or ``Action/none`` when there is nothing more.
    ///
    /// Order: expired links first, then (if the newest link's gate is open) the older links it
    /// supersedes, then the route; otherwise one waiting notice when the newest link or what it
    /// misses changed.
    package mutating func nextAction(now: UInt64) -> Action {
        switch nextDecision(now: now, _Unscheduled()) {
        case .none: .none
        case .route(let slot): .route(links[slot])
        case .supersede(let slot, let newerID): .supersede(links[slot], byID: newerID)
        case .expire(let slot): .expire(links[slot])
        case .waitForGate(let slot, let missing): .waitForGate(links[slot], missing: missing)
        case .holdForAccount(let slot): .holdForAccount(links[slot])
        case .ignoreDuplicate, .supersedeIncoming: preconditionFailure("nextDecision never reports a staging outcome")
        }
    }

    /// The router answered ``RouteResult/notReady`` for `link` (the link of a ``Action/route(_:)``):
    /// it becomes pending again and is not offered before the next ``signal(_:now:)``. Returns the
    /// outcome of putting it back: ``Action/none``, or a supersede (of `link` itself when a newer
    /// link was routed since, or of the oldest pending link when the set is full).
    package mutating func routeDeclined(_ link: PendingLink) -> Action {
        switch withUnsafePointer(to: link, { restageDecision(declined: $0) }) {
        case .none: .none
        case .supersedeIncoming(let newerID): .supersede(link, byID: newerID)
        case .supersede(let slot, let newerID): .supersede(links[slot], byID: newerID)
        case .ignoreDuplicate(let discardRecord): .ignoreDuplicate(link, discardRecord: discardRecord)
        case .route, .expire, .waitForGate, .holdForAccount:
            preconditionFailure("restaging never routes, expires or waits")
        }
    }

    /// ``routeDeclined(_:)`` naming links as ``stageDecision(_:consumedBefore:)`` does.
    mutating func restageDecision(declined link: UnsafePointer<PendingLink>) -> Decision {
        guard !isKilled else { return .none }
        let identity = CaptureIdentity(link.pointee)
        var declined: Slot?
        for index in routed.indices where routed[index]?.identity == identity {
            declined = routed[index]
            routed[index] = nil
        }
        // Latest wins: a link routed after this one was decided keeps its place.
        if let declined {
            for index in routed.indices {
                if let entry = routed[index], Self.isNewer(entry, than: declined) {
                    return .supersedeIncoming(byID: entry.identity.id)
                }
            }
        }
        let decision = stageDecision(link, consumedBefore: false)
        for index in slots.indices where slots[index].occupied && slots[index].identity == identity {
            slots[index].deferred = true
            mayHoldDeferred = true
        }
        return decision
    }

    /// ``nextAction(now:)`` naming the link by its slot instead of carrying a copy of it: the link
    /// stays readable with ``record(at:into:)`` until the next `stage`, `capture` or `reset` (a
    /// link that left the pending set keeps its bytes in its freed slot until then). The resolver
    /// copies each one once, straight into its outbox.
    ///
    /// `points`: where the planted ``ConcurrencyFault/forgetRoutedRing`` is read (never with
    /// ``_Unscheduled``).
    @inline(__always)  // the common answer without a call: every decision loop ends with one
    mutating func nextDecision<Points: _SchedulePoints>(now: UInt64, _ points: Points) -> Decision {
        guard !isKilled else { return .none }
        // Most calls find nothing pending: no scans then.
        guard pendingCount > 0 else {
            lastWait = nil
            return .none
        }
        return nextDecisionAmongPending(now: now, points)
    }

    /// ``nextDecision(now:_:)`` of a live machine with links pending.
    private mutating func nextDecisionAmongPending<Points: _SchedulePoints>(now: UInt64, _ points: Points) -> Decision {
        let satisfied = satisfiedEvents
        defer { _checkInvariants() }
        // One pass: the first expired link (in slot order) goes first; otherwise the newest.
        var newestIndex: Int?
        for index in slots.indices where slots[index].occupied {
            if isExpired(slots[index], now: now) {
                vacate(index)
                return .expire(slot: index)
            }
            if let current = newestIndex, !Self.isNewer(slots[index], than: slots[current]) { continue }
            newestIndex = index
        }
        guard let newest = newestIndex else {
            lastWait = nil
            return .none
        }
        let candidate = slots[newest]
        // Declined by the router: it waits for the next signal, and so do the links it would
        // supersede.
        if candidate.deferred { return .none }
        let missing = candidate.requires.subtracting(satisfied)
        if missing.isEmpty, candidate.boundToAccount, !isLoggedInAccount(ofLinkAt: newest) {
            // Reported once per link (an empty `missing` marks the notice as this one).
            if lastWait == candidate.identity, lastWaitMissing.isEmpty { return .none }
            lastWait = candidate.identity
            lastWaitMissing = []
            return .holdForAccount(slot: newest)
        }
        if missing.isEmpty {
            if pendingCount > 1, let older = indexOfAnyPending(except: newest) {
                vacate(older)
                return .supersede(slot: older, byID: candidate.identity.id)
            }
            if !points.plants(.forgetRoutedRing) { remember(candidate) }
            lastWait = nil
            vacate(newest)
            return .route(slot: newest)
        }
        if lastWait == candidate.identity, lastWaitMissing == missing { return .none }
        lastWait = candidate.identity
        lastWaitMissing = missing
        return .waitForGate(slot: newest, missing: missing)
    }

    /// Copies the record of `slot` (named by the last ``nextDecision(now:_:)``) into `link`: one
    /// record-sized copy, in place.
    func record(at slot: Int, into destination: UnsafeMutablePointer<PendingLink>) {
        links.withUnsafeBufferPointer { links in
            PendingLink._assign(destination, compactlyFrom: links.baseAddress! + slot)
        }
    }
}
