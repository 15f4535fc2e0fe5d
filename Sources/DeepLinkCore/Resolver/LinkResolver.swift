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
/// try resolver.launch()   // captures what the store kept from earlier processes
/// resolver.capture(payload: bytes, validator: validator, source: .universalLink, id: id)  // any thread
/// resolver.signal(.appReady)   // any thread
/// resolver.signal(.loggedIn)
/// ```
///
/// ## How it decides
/// The decisions are made by a `ResolverStateMachine` (a side-effect-free value type) behind a
/// lock (a pthread mutex, which ThreadSanitizer can see). A capture saves the link to the store;
/// when no thread holds the drain role (below), it stages the link under the lock itself, as a
/// signal applies its event. A capture that arrives while another thread drains does not wait for
/// that lock: it pushes the link into the lock-free `PendingLinkQueue`; queued links move into
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
/// A payload the validator (or the signature check) rejects never becomes a captured
/// ``PendingLink`` and never reaches the router: the capture call returns the rejection and reports
/// it as ``ResolverDecision/rejected(_:source:)``, and the app stays on (falls back to) its home
/// route.
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
        /// When set, ``LinkResolver/captureReferrer(_:parser:validator:capturedAtNanos:id:installBeginTimestamp:clickTimestampSeconds:)``
        /// binds a link to the field's decoded value (``PendingLink/account``) and rejects the link
        /// as ``LinkRejection/invalidAccount`` when that value is not an ``AccountID``.
        public var referrerAccountKey: String?
        /// Which links must be signed, and how signatures are checked; `nil` (the default): no link
        /// needs one. Checked on every capture (``LinkResolver/capture(payload:validator:source:capturedAtNanos:id:installBeginTimestamp:account:attribution:)``,
        /// ``LinkResolver/captureReferrer(_:parser:validator:capturedAtNanos:id:installBeginTimestamp:clickTimestampSeconds:)``)
        /// against the resolver's clock read as Unix time; an App Clip's
        /// ``HandoffStore/capture(payload:validator:signing:source:capturedAtNanos:id:account:)``
        /// checks it too.
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

    /// Creates a resolver for one process, on the system's wall clock. Call ``launch()`` to pick up
    /// links earlier processes left in `store`.
    ///
    /// - Parameter observer: hears every decision the resolver makes; `nil` (the default): no one.
    public convenience init(
        configuration: Configuration,
        store: any HandoffStore,
        router: any Router,
        observer: (any ResolverObserver)? = nil
    ) {
        self.init(
            configuration: configuration,
            store: store,
            router: router,
            observer: observer ?? IgnoringResolverObserver(),
            clock: WallClock(),
            process: SimulatedProcess()
        )
    }

    /// A resolver on `clock` (simulations and tests: a `ManualClock`).
    package convenience init(
        configuration: Configuration,
        store: any HandoffStore,
        router: any Router,
        observer: any ResolverObserver = IgnoringResolverObserver(),
        clock: any ResolverClock
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
        // Room for a full pending set from the start: a launch that loads no more than that
        // allocates nothing, the first included.
        var launchBuffer: [PendingLink] = []
        launchBuffer.reserveCapacity(max(0, configuration.pendingCapacity))
        self.launchBuffer.initialize(to: launchBuffer)
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

    /// Captures `link` (from any thread) as it is: saves it to the store (unless the store already
    /// knows it as consumed), hands it to the resolver and, if no other thread is draining, decides
    /// at once. Not public: it neither validates nor authenticates. Apps capture through
    /// ``capture(payload:validator:source:capturedAtNanos:id:installBeginTimestamp:account:attribution:)``
    /// and ``captureReferrer(_:parser:validator:capturedAtNanos:id:installBeginTimestamp:clickTimestampSeconds:)``,
    /// which do both and then call ``capture(built:)``; this one takes a record held by value
    /// (the tests', the benchmarks'), borrowed all the way.
    package func capture(_ link: PendingLink) {
        switch process.run {
        case .unscheduled: capture(borrowed: link, _Unscheduled())
        case .scheduled: capture(borrowed: link, _Scheduled())
        case .killed: return
        }
    }

    /// ``capture(_:)`` of the record its caller built and checked in place (what the public
    /// captures call): taken `inout`, it travels by address from there, where passed by value the
    /// record (some 750 bytes) was copied on the way in and again to be admitted by address.
    func capture(built link: inout PendingLink) {
        switch process.run {
        case .unscheduled: capture(built: &link, _Unscheduled())
        case .scheduled: capture(built: &link, _Scheduled())
        case .killed: return
        }
    }

    /// ``capture(_:)`` in a live process, through `points`: the save borrows the record, and the
    /// admission copies it once, to take its address.
    @inline(__always)  // into each of the two cases above: as a call it copies the record
    private func capture<Points: _LockingSchedulePoints>(borrowed link: borrowing PendingLink, _ points: Points) {
        let consumedBefore = save(capturing: link, points)
        withUnsafePointer(to: link) { admit($0, consumedBefore: consumedBefore, points) }
    }

    /// ``capture(built:)`` in a live process, through `points`: the save copies the record once
    /// (the store is an existential, and an `inout` argument is not borrowed into it), and the
    /// admission takes its address.
    @inline(__always)
    private func capture<Points: _LockingSchedulePoints>(built link: inout PendingLink, _ points: Points) {
        let consumedBefore = save(capturing: link, points)
        withUnsafePointer(to: &link) { admit($0, consumedBefore: consumedBefore, points) }
    }

    /// A capture's save. Its answer is the capture's duplicate check against the store (one store
    /// call): true when the store knew `link` as consumed. A capture that could not be saved is
    /// staged all the same, and the consumed mark before its route still refuses it if it was
    /// consumed.
    @inline(__always)
    private func save<Points: _LockingSchedulePoints>(capturing link: borrowing PendingLink, _ points: Points) -> Bool {
        do throws(HandoffStoreError) {
            points.reach(.storeSave)
            return try !store.saveUnlessConsumed(link)
        } catch {
            reportStoreFailure(link, operation: .save, error: error)
            return false
        }
    }

    /// Reports a store operation on `link` that failed. Out of line: built in place, the decision
    /// made its caller copy the record on every call, failure or not.
    @inline(never)
    func reportStoreFailure(
        _ link: borrowing PendingLink,
        operation: HandoffOperation,
        error: HandoffStoreError
    ) {
        report(.storeFailed, about: link) { .storeFailed($0, operation: operation, error: error) }
    }

    /// Reports a payload that failed validation (from any thread): it is never routed and the app
    /// stays on its home route; the observer gets ``ResolverDecision/rejected(_:source:)`` at once,
    /// from this thread. Nothing is saved to the store.
    package func captureRejected(_ reason: LinkRejection, source: LinkSource) {
        guard process.isAlive else { return }
        report(.rejected, .rejected(reason, source: source))
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
    package var state: ResolverStateMachine.State { core.withLock { $0.machine.state } }

    /// How many links wait for their gate (a snapshot; links still in the queue are not counted).
    public var pendingCount: Int { core.withLock { $0.machine.pendingCount } }

    /// How many captures so far found the capture queue full and went to the machine directly (or,
    /// with no room there either, waited in the store): a sign the queue is too small for the
    /// app's bursts. Monotonic over the resolver's life.
    public var capturesPastFullQueue: Int { fullQueueCaptures.load(ordering: .relaxed) }

    /// How many captures wait in the capture queue, not yet moved into the machine (a snapshot).
    /// Zero whenever no capture or drain is in flight; anything else is a stranded capture.
    public var queuedCount: Int { queue.approximateCount }
}
