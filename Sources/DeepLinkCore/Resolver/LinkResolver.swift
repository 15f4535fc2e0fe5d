import Synchronization

/// The gate between captured links and the app's navigation: routes each captured link
/// exactly once, only when the app is ready and the link's required events have happened, newest
/// link first, never an expired or duplicate one, and keeps every link in the ``HandoffStore``
/// until it is routed.
///
/// ## Use
/// ```swift
/// let policy = try RoutePolicy(rules: [(prefix: "/orders", requires: .loggedIn)])
/// let resolver = LinkResolver(
///     configuration: .init(policy: policy),
///     store: store,
///     router: router,
///     observer: observer
/// )
/// try resolver.launch()             // captures what the store kept from earlier processes
/// resolver.capture(pendingLink)     // any thread: clip handoff, referrer callback, ...
/// resolver.signal(.appReady)        // any thread
/// resolver.signal(.loggedIn)
/// ```
///
/// ## How it decides
/// The decisions are made by a ``ResolverStateMachine`` (a side-effect-free value type) behind a
/// lock (a pthread mutex, which ThreadSanitizer can see). A capture saves the link to the store;
/// when no thread holds the drain role (below), it stages the link under the lock itself, as a
/// signal applies its event. A capture that arrives while another thread drains does not wait for
/// that lock: it pushes the link into the lock-free ``PendingLinkQueue``; queued links move into
/// the machine under the lock (one consumer at a time), first when a signal applies its event (so
/// a capture made before a signal on the same thread is seen before it) and otherwise when the
/// drainer runs.
/// The machine's actions go into a fixed-capacity outbox, and whoever holds the *drain role*
/// carries them out outside the lock: for a route, ``HandoffStore/markConsumed(_:)`` first (the
/// check and the mark in one step), then ``Router`` only when it answered that it wrote the mark.
///
/// The drain role is a counter of unprocessed inputs: every input increments it after making
/// itself visible (enqueue / outbox write); the caller that moves it from 0 becomes the drainer and
/// keeps draining until it can subtract everything it saw and reach 0 again. Because the hand-off
/// is a read-modify-write on one atomic, an input that races with the drainer letting go is either
/// seen by that drainer or makes its own caller the next drainer: no capture is ever stranded.
///
/// ## Guarantees
/// - *Exactly once* in one process: a link's route action is produced once by the machine (it then
///   leaves the pending set) and router calls are serialized by the drain role.
/// - *At most once* across a kill: the consumed mark is written before the router is called; a kill
///   in between loses that one link (the store knows it as consumed).
/// - A decision is linearized when the machine makes it (under the lock); the router call follows.
///   A `loggedOut` signalled on another thread after that point does not recall the route; an app
///   that needs its navigation ordered after its logout signals and navigates on one thread.
///
/// ## Rejected payloads
/// A payload the validator rejects never becomes a ``PendingLink`` and never reaches the router:
/// the capture source reports it with ``captureRejected(_:source:)`` and the app stays on (falls
/// back to) its home route.
///
/// Thread safety: every public member may be called from any thread, including from inside the
/// router or the observer.
///
/// - Complexity: capture, signal and routing are O(pending capacity); after `init` and warm-up
///   they allocate nothing when the store, router, observer and clock do not.
public final class LinkResolver: Sendable {
    /// Tuning of one resolver.
    ///
    /// Thread safety: a value type; `Sendable`.
    public struct Configuration: Sendable {
        /// Which events each destination needs: the app's own rules (there is no default).
        public var policy: RoutePolicy
        /// Links older than this (nanoseconds on the resolver's clock) expire.
        public var timeToLiveNanos: UInt64
        /// How many links may wait at once in the machine; beyond it the oldest is superseded early
        /// (it would lose to the newer one anyway).
        public var pendingCapacity: Int
        /// Capacity of the capture queue (rounded up to a power of two). It only holds captures that
        /// arrive while another thread drains; when it is full, captures go to the machine directly.
        public var queueCapacity: Int
        /// The referrer field that names the account a link is meant for (for example
        /// `"account"`), or `nil` (the default) to bind no link: per-account links are opt-in.
        /// When set, ``captureReferrer(_:parser:validator:capturedAtNanos:id:installBeginTimestamp:clickTimestampSeconds:)``
        /// binds a link to the field's decoded value (``PendingLink/account``) and rejects the link
        /// as ``LinkRejection/invalidAccount`` when that value is not an ``AccountID``.
        public var referrerAccountKey: String?
        /// Which links must be signed, and how signatures are checked; `nil` (the default): no link
        /// needs one. Checked by ``LinkResolver/capture(payload:validator:source:capturedAtNanos:id:installBeginTimestamp:attribution:)``,
        /// ``LinkResolver/captureReferrer(_:parser:validator:capturedAtNanos:id:installBeginTimestamp:clickTimestampSeconds:)``
        /// and ``LinkResolver/authenticate(_:)``, against the resolver's clock read as Unix time
        /// (``WallClock``).
        public var signing: SignedLinkVerifier?

        /// Seven days: longer than any install takes, short enough that a stale link is not routed.
        public static let defaultTimeToLiveNanos: UInt64 = 7 * 24 * 3600 * 1_000_000_000

        public init(
            policy: RoutePolicy,
            timeToLiveNanos: UInt64 = defaultTimeToLiveNanos,
            pendingCapacity: Int = 4,
            queueCapacity: Int = 16,
            referrerAccountKey: String? = nil,
            signing: SignedLinkVerifier? = nil
        ) {
            self.policy = policy
            self.timeToLiveNanos = timeToLiveNanos
            self.pendingCapacity = pendingCapacity
            self.queueCapacity = queueCapacity
            self.referrerAccountKey = referrerAccountKey
            self.signing = signing
        }
    }

    /// The store links wait in.
    public let store: any HandoffStore
    /// The process this resolver lives in (only a simulation kills it).
    package let process: SimulatedProcess

    let router: any Router
    let observer: any ResolverObserver
    /// `observer`, when a simulation wants to hear of the crash window.
    let crashWindowObserver: (any CrashWindowObserver)?
    /// `observer.interests`, read once.
    let interests: ResolverDecision.Kinds
    let clock: any ResolverClock
    /// ``Configuration/referrerAccountKey``.
    let referrerAccountKey: String?
    /// ``Configuration/signing``.
    let signing: SignedLinkVerifier?
    let queue: PendingLinkQueue
    let core: Locked<_Core>
    /// Where ``launch()`` loads the store's pending links (reused across launches), and whether a
    /// launch holds it (the flag's acquire/release exchange orders one holder's accesses before
    /// the next one's).
    nonisolated(unsafe) let launchBuffer: UnsafeMutablePointer<[PendingLink]>
    let launchBufferTaken = Atomic<Bool>(false)
    /// Unprocessed inputs; nonzero while some thread holds the drain role.
    let work = Atomic<Int>(0)
    /// Captures that found the queue full (counted off the hot path: only on that fallback).
    let fullQueueCaptures = Atomic<Int>(0)
    /// The record of the effect the drainer carries out, in place (its decision travels apart; see
    /// ``perform(_:on:_:)``). Only the thread holding the drain role touches it; the role passes
    /// between threads through `work`'s acquire/release read-modify-writes, which order one
    /// drainer's accesses before the next one's.
    nonisolated(unsafe) let drainScratch: UnsafeMutablePointer<PendingLink>

    /// Creates a resolver for one process. Call ``launch()`` to pick up links earlier processes
    /// left in `store`.
    public convenience init(
        configuration: Configuration,
        store: any HandoffStore,
        router: any Router,
        observer: any ResolverObserver = IgnoringResolverObserver(),
        clock: any ResolverClock = WallClock()
    ) {
        self.init(
            configuration: configuration,
            store: store,
            router: router,
            observer: observer,
            clock: clock,
            process: SimulatedProcess()
        )
    }

    /// A resolver living in the simulated `process` (simulation: a kill of it stops the resolver).
    package init(
        configuration: Configuration,
        store: any HandoffStore,
        router: any Router,
        observer: any ResolverObserver = IgnoringResolverObserver(),
        clock: any ResolverClock = WallClock(),
        process: SimulatedProcess
    ) {
        self.store = store
        self.router = router
        self.observer = observer
        self.crashWindowObserver = observer as? any CrashWindowObserver
        self.interests = observer.interests
        self.clock = clock
        self.signing = configuration.signing
        self.process = process
        self.referrerAccountKey = configuration.referrerAccountKey
        var queueCapacity = 1
        while queueCapacity < configuration.queueCapacity,
            queueCapacity < PendingLinkQueue.maximumCapacity
        {
            queueCapacity <<= 1
        }
        self.queue = PendingLinkQueue(capacity: queueCapacity)
        let machine = ResolverStateMachine(
            policy: configuration.policy,
            timeToLiveNanos: configuration.timeToLiveNanos,
            pendingCapacity: configuration.pendingCapacity
        )
        self.core = Locked(_Core(machine: machine, interests: interests))
        self.drainScratch = UnsafeMutablePointer<PendingLink>.allocate(capacity: 1)
        self.drainScratch.initialize(to: .placeholder)
        self.launchBuffer = UnsafeMutablePointer<[PendingLink]>.allocate(capacity: 1)
        self.launchBuffer.initialize(to: [])
    }

    deinit {
        launchBuffer.deinitialize(count: 1)
        launchBuffer.deallocate()
        drainScratch.deinitialize(count: 1)
        drainScratch.deallocate()
    }

    // MARK: - Inputs

    /// Captures every link `store` kept from earlier processes (pending, not consumed), reporting
    /// unreadable records as ``ResolverDecision/unreadableRecord(_:)``. Returns how many links it
    /// captured. Call once per process, before or after the app's first signals.
    ///
    /// - Throws: what ``HandoffStore/loadPending(into:)`` throws; nothing is captured then.
    @discardableResult
    public func launch() throws(HandoffStoreError) -> Int {
        // One load picks the internals: without schedule points, or (a controlled race) with them.
        switch process.run {
        case .unscheduled:
            // Most launches find an empty store: the load would append nothing and report nothing,
            // so the buffer hand-off around it is skipped. (Not under a controlled schedule, whose
            // replays count on every schedule point of a launch.)
            guard store.mayHoldPending else { return 0 }
            return try launch(_Unscheduled())
        case .scheduled: return try launch(_Scheduled())
        case .killed: return 0
        }
    }

    /// ``launch()`` of a live process, through `points`.
    @inline(__always)
    private func launch<Points: _LockingSchedulePoints>(_ points: Points) throws(HandoffStoreError) -> Int {
        // A reused buffer (no allocation once it fits a load), owned by whoever flips the flag; a
        // concurrent launch just gets a fresh one. No lock is held while the store loads.
        points.reach(.launchFlagTake)
        let ownsBuffer = !launchBufferTaken.exchange(true, ordering: .acquiring)
        var pending: [PendingLink] = []
        if ownsBuffer { swap(&pending, &launchBuffer.pointee) }
        defer {
            if ownsBuffer {
                swap(&launchBuffer.pointee, &pending)
                points.reach(.launchFlagRelease)
                launchBufferTaken.store(false, ordering: .releasing)
            }
        }
        pending.removeAll(keepingCapacity: true)
        points.reach(.storeLoad)
        let skipped = try store.loadPending(into: &pending)
        let count = pending.count
        if count > 0 {
            // One transaction: admitted one at a time, an `appReady` on another thread could route
            // the older of two stored links before the newer one arrives (latest wins would break).
            let now = clock.nowNanos()
            core.withLock(points) { core in
                core.pull(from: queue, now: now, points)
                core.admitBatch(pending, now: now, points)
            }
        }
        for index in skipped.indices { report(.unreadableRecord, .unreadableRecord(skipped[index])) }
        if count > 0 { requestDrain(points) }
        return count
    }

    /// Captures `link` (from any thread): saves it to the store (unless the store already knows it
    /// as consumed), hands it to the resolver and, if no other thread is draining, decides at once.
    public func capture(_ link: PendingLink) {
        switch process.run {
        case .unscheduled: capture(link, _Unscheduled())
        case .scheduled: capture(link, _Scheduled())
        case .killed: return
        }
    }

    /// ``capture(_:)`` in a live process, through `points`.
    @inline(__always)  // into each of the two cases above: as a call it copies the record
    private func capture<Points: _LockingSchedulePoints>(_ link: borrowing PendingLink, _ points: Points) {
        // The save's answer is the capture's duplicate check against the store (one store call);
        // a capture that could not be saved is staged all the same, and the consumed mark before
        // its route still refuses it if it was consumed.
        var consumedBefore = false
        do throws(HandoffStoreError) {
            points.reach(.storeSave)
            consumedBefore = try !store.saveUnlessConsumed(link)
        } catch {
            reportStoreFailure(link, operation: .save, error: error)
        }
        admit(link, consumedBefore: consumedBefore, points)
    }

    /// Reports a store operation on `link` that failed. Out of line: built in place, the decision
    /// made its caller copy the record on every call, failure or not.
    @inline(never)
    private func reportStoreFailure(
        _ link: borrowing PendingLink,
        operation: HandoffOperation,
        error: HandoffStoreError
    ) {
        report(.storeFailed, about: link) { .storeFailed($0, operation: operation, error: error) }
    }

    /// Reports a payload that failed validation (from any thread): it is never routed and the app
    /// stays on its home route; the observer gets ``ResolverDecision/rejected(_:source:)`` at once,
    /// from this thread. Nothing is saved to the store.
    public func captureRejected(_ reason: LinkRejection, source: LinkSource) {
        guard process.isAlive else { return }
        report(.rejected, .rejected(reason, source: source))
    }

    /// Validates a decoded payload and captures the link, or reports the rejection: the one call a
    /// capture source needs. Returns the rejection, or `nil` when the link was captured.
    ///
    /// - Complexity: O(n) in the payload's length; validation itself allocates nothing.
    @discardableResult
    public func capture(
        payload decoded: UnsafeRawBufferPointer,
        validator: LinkValidator,
        source: LinkSource,
        capturedAtNanos: UInt64,
        id: UInt64,
        installBeginTimestamp: UInt64 = 0,
        attribution: LinkAttribution = LinkAttribution()
    ) -> LinkRejection? {
        switch validator.validate(decoded) {
        case .success(let link):
            var pending = PendingLink(
                link: link,
                source: source,
                capturedAtNanos: capturedAtNanos,
                id: id,
                installBeginTimestamp: installBeginTimestamp,
                attribution: attribution
            )
            if let rejection = authenticate(&pending) {
                captureRejected(rejection, source: source)
                return rejection
            }
            capture(pending)
            return nil
        case .failure(let reason):
            captureRejected(reason, source: source)
            return reason
        }
    }

    /// Checks a validated link against ``Configuration/signing`` before it is captured (see
    /// ``SignedLinkVerifier/authenticate(_:store:nowSeconds:)``): a signed link's capture id becomes
    /// its nonce. Returns the rejection (report it with ``captureRejected(_:source:)``), or `nil`
    /// when `pending` may be captured. ``capture(_:)`` does not call it: a capture source that
    /// builds its own ``PendingLink`` calls this first.
    ///
    /// - Complexity: O(n) in the link's length plus the authenticator's MAC and one
    ///   ``HandoffStore/wasConsumed(_:)`` for a signed link; nothing without ``Configuration/signing``.
    public func authenticate(_ pending: inout PendingLink) -> LinkRejection? {
        // Called through the optional in place: `guard let signing` copies the verifier, a retain
        // and a release on every capture.
        signing?.authenticate(&pending, store: store, nowSeconds: clock.nowNanos() / 1_000_000_000) ?? nil
    }

    /// Reports that the app reached `event` (from any thread).
    public func signal(_ event: AppEvent) {
        switch process.run {
        case .unscheduled: decide(_Unscheduled()) { core, now in core.signal(event, now: now, _Unscheduled()) }
        case .scheduled: decide(_Scheduled()) { core, now in core.signal(event, now: now, _Scheduled()) }
        case .killed: return
        }
    }

    /// Re-reads the clock and expires what is due (for simulations that move virtual time while
    /// nothing else happens).
    public func tick() {
        switch process.run {
        case .unscheduled: decide(_Unscheduled()) { core, now in core.decide(now: now, _Unscheduled()) }
        case .scheduled: decide(_Scheduled()) { core, now in core.decide(now: now, _Scheduled()) }
        case .killed: return
        }
    }

    /// Simulation: kills this resolver's process now. Nothing more is decided or carried out; what
    /// the store holds is what a relaunch finds.
    package func simulateKill() {
        process.kill()
        core.withLock { core in
            core.machine.kill()
            core.clearOutbox()
        }
    }

    /// Simulation, in place: this resolver becomes the one a new process would create over the same
    /// store, router, observer and clock, without allocating: the machine starts over (nothing
    /// pending, nothing remembered, no event signalled) and links still queued by the dead process
    /// are dropped (they live on in the store only if they were saved). Kills ``process`` first if
    /// it is still alive; restart it (``SimulatedProcess/restart()``) and relaunch the store before
    /// calling ``launch()``.
    ///
    /// Call only when no other thread uses the resolver (no capture, signal or drain in flight).
    package func relaunch() {
        process.kill()
        // Borrowed and dropped in their slots: no record is copied out.
        while queue.tryDequeueSingleConsumer({ _ in }) != nil {}
        // One critical section: the reset also does what the kill's `markKilled` would have.
        core.withLock { $0.reset() }
        precondition(work.load(ordering: .acquiring) == 0, "relaunch while another thread drains")
    }

    // MARK: - Inspection

    /// The machine's state (a snapshot).
    public var state: ResolverStateMachine.State { core.withLock { $0.machine.state } }

    /// How many links wait for their gate (a snapshot; links still in the queue are not counted).
    public var pendingCount: Int { core.withLock { $0.machine.pendingCount } }

    /// How many captures so far found the capture queue full and went to the machine directly (or,
    /// with no room there either, waited in the store): a sign the queue is too small for the
    /// app's bursts. Monotonic over the resolver's life.
    public var capturesPastFullQueue: Int { fullQueueCaptures.load(ordering: .relaxed) }

    /// How many captures wait in the capture queue, not yet moved into the machine (a snapshot).
    /// Zero whenever no capture or drain is in flight; anything else is a stranded capture.
    public var queuedCount: Int { queue.approximateCount }

    // MARK: - Internals

    /// In a live process, under the lock: admits queued captures, then runs `body` (an event, or
    /// time passing) on the machine. A drain is requested only when something is left to carry
    /// out; inputs that arrive later count themselves.
    ///
    /// One lock round trip per decision: when this thread becomes the drainer, it takes the first
    /// effect in the same critical section (no other thread pops while it holds the role, so the
    /// head it takes is the one a fresh lock would give it).
    @inline(__always)
    private func decide<Points: _LockingSchedulePoints>(_ points: Points, _ body: (inout _Core, UInt64) -> Void) {
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
    /// The record travels by address from here on, the address of the caller's own argument: a
    /// closure that captured the record would copy it whole into its context first.
    @inline(__always)  // one copy of the record fewer on every capture
    private func admit<Points: _LockingSchedulePoints>(
        _ link: borrowing PendingLink,
        consumedBefore: Bool,
        _ points: Points
    ) {
        withUnsafePointer(to: link) { link in
            // A stale answer either way is safe: the locked path is always correct, and a queued
            // link counts itself once it is visible. A capture the store knew as consumed always
            // takes the locked path: the queue carries no verdict (queued links were saved).
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
    }

    /// ``admit(_:_:)`` while another thread may drain: through the lock-free queue, or (queue
    /// full) directly.
    @inline(__always)
    private func enqueue<Points: _LockingSchedulePoints>(_ link: UnsafePointer<PendingLink>, _ points: Points) {
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
    private func requestDrain<Points: _LockingSchedulePoints>(_ points: Points) {
        if takesDrainRole(points) { drain(points) }
    }

    /// Counts one input; true when no thread held the drain role, which is then the caller's.
    @inline(__always)
    private func takesDrainRole<Points: _LockingSchedulePoints>(_ points: Points) -> Bool {
        points.reach(.workIncrement)
        return work.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue == 0
    }

    /// Runs while this thread holds the drain role: carries out every action until it can give the
    /// role back with nothing left behind.
    private func drain<Points: _LockingSchedulePoints>(_ points: Points) {
        points.reach(.workLoad)
        drain(points, observed: work.load(ordering: .acquiring), more: true)
    }

    /// ``drain(_:)`` once `observed` inputs are counted; `more` is false when the outbox and the
    /// queue were empty at the last pop (after which those inputs' effects were visible).
    private func drain<Points: _LockingSchedulePoints>(_ points: Points, observed initial: Int, more initialMore: Bool)
    {
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
    private func perform<Points: _LockingSchedulePoints>(
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
    private func carryOut<Points: _LockingSchedulePoints>(
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
    private func reportCopying(_ link: borrowing PendingLink, _ decision: (PendingLink) -> ResolverDecision) {
        observer.resolverDecided(decision(copy link))
    }

    /// The router did not handle `link`: the store gets it back as pending and the machine holds
    /// it until the next signal. Runs on the drainer; a staging outcome (a supersede) is carried
    /// out by this same drain.
    private func declined<Points: _LockingSchedulePoints>(_ link: borrowing PendingLink, _ points: Points) {
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

    private func discard<Points: _LockingSchedulePoints>(_ link: borrowing PendingLink, _ points: Points) {
        do throws(HandoffStoreError) {
            points.reach(.storeDiscard)
            try store.discard(link)
        } catch {
            reportStoreFailure(link, operation: .discard, error: error)
        }
    }
}
