import DeepLinkCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// This project's design, end to end through DeepLinkCore: the App Clip validates its invocation
/// URL and writes a ``PendingLink`` into an ``InMemoryHandoffStore`` (the App Group container, with
/// its crash model); each process launch relaunches the worker's ``LinkResolver`` over that store
/// in place (the example app's route policy, ``ExampleApp``, the mix's time-to-live, a virtual ``ManualClock``; a relaunched
/// resolver behaves exactly like a new one, without allocating) and captures what the store kept;
/// Android referrers go through ``ReferrerParser/verdict(for:validator:)`` and are captured with
/// Play's install-begin timestamp (a new id per delivery, so re-deliveries must be recognised by
/// that timestamp); the app's `appReady` / login / logout become `signal`s; a kill kills the
/// simulated process and a relaunch starts from the store's image; `crashArmed` arms a kill right
/// after the next consumed mark (the crash window).
///
/// In a journey marked ``Journey/racing``, the first capture and the gate signal that follows it
/// are delivered from two threads at once (this worker and a partner thread), so the resolver's
/// lock-free capture path and its drain hand-off see real races.
///
/// `faults` wires the core up wrongly on purpose, to prove that the harness catches it.
///
/// Thread safety: one instance per worker thread; the partner thread only runs closures handed to
/// it while the worker waits.
public struct CoreStrategy: Strategy {
    /// Deliberate miswirings of the core, for tests of the harness itself.
    public struct Faults: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// The router forwards every route twice (a resolver that routes twice).
        public static let routeTwice = Faults(rawValue: 1 << 0)
        /// The app signals `loggedIn` at every launch (a gate that ignores the login).
        public static let ignoreLoginGate = Faults(rawValue: 1 << 1)
        /// A relaunch starts from an empty container (a store that is not durable).
        public static let forgetOnKill = Faults(rawValue: 1 << 2)
        /// Rejections are reported with another reason than the validator's (expected: misjudged).
        public static let wrongRejectionReason = Faults(rawValue: 1 << 3)
        /// Play's organic and `(not set)` placeholders are read as each other (expected: misjudged).
        public static let placeholderMisread = Faults(rawValue: 1 << 4)
        /// The app navigates one event after the router call (expected: late).
        public static let lateRoute = Faults(rawValue: 1 << 5)
        /// Referrers are captured without Play's install-begin timestamp, so a re-delivery under a
        /// new id is not recognised (expected: duplicated).
        public static let noTimestampDedupe = Faults(rawValue: 1 << 6)
        /// The resolver is given a time-to-live of a year (expected: stale).
        public static let ignoreExpiry = Faults(rawValue: 1 << 7)
        /// Expired links are reported as superseded (expected: misjudged).
        public static let expiryReportedAsSuperseded = Faults(rawValue: 1 << 8)
        /// A rejected payload is captured anyway, as the link of the home route (expected: unsafe
        /// or misrouted).
        public static let routeRejected = Faults(rawValue: 1 << 9)
        /// Journeys with a kill stall for 1.5 s (a stuck capture): the watchdog's test subject.
        public static let stall = Faults(rawValue: 1 << 10)
        /// One journey in 4,096 traps (a precondition failure): the trap supervisor's test subject.
        public static let trap = Faults(rawValue: 1 << 11)
        /// The drainer lets go of the drain role without re-checking for work (a concurrency bug
        /// in the core: `ConcurrencyFault.drainerSkipsRecheck`).
        public static let drainerSkipsRecheck = Faults(rawValue: 1 << 12)
        /// The resolver forgets its ring of routed links (`ConcurrencyFault.forgetRoutedRing`).
        public static let forgetRoutedRing = Faults(rawValue: 1 << 13)
        /// The queue's consumer reads a slot its producer has not published yet
        /// (`ConcurrencyFault.consumerReadsUnpublished`).
        public static let consumerReadsUnpublished = Faults(rawValue: 1 << 14)
        /// The faults planted in the core's concurrent paths: they show only in racing journeys.
        public static let concurrency: Faults = [.drainerSkipsRecheck, .forgetRoutedRing, .consumerReadsUnpublished]
        /// Every journey burns ``slowPathRounds`` extra arithmetic rounds (a slower core, same
        /// outcomes): the instruction gate's test subject (`gate --instructions`).
        public static let slowPath = Faults(rawValue: 1 << 15)

        /// Every fault by name (`run --core-faults`).
        public static var named: [(name: String, fault: Faults)] {
            (catalogue + concurrencyCatalogue).map { ($0.name, $0.fault) } + [
                ("stall", .stall), ("trap", .trap), ("slowPath", .slowPath),
            ]
        }

        /// The concurrency faults with the outcome class the harness must report for each in
        /// racing journeys under a controlled `--schedule`.
        public static let concurrencyCatalogue: [(fault: Faults, name: String, expected: JourneyOutcome)] = [
            (.drainerSkipsRecheck, "drainerSkipsRecheck", .lost),
            (.forgetRoutedRing, "forgetRoutedRing", .duplicated),
            (.consumerReadsUnpublished, "consumerReadsUnpublished", .lost),
        ]

        /// Every fault with the outcome class the harness must report for it.
        public static let catalogue: [(fault: Faults, name: String, expected: JourneyOutcome)] = [
            (.routeTwice, "routeTwice", .duplicated),
            (.ignoreLoginGate, "ignoreLoginGate", .premature),
            (.forgetOnKill, "forgetOnKill", .lost),
            (.wrongRejectionReason, "wrongRejectionReason", .misjudged),
            (.placeholderMisread, "placeholderMisread", .misjudged),
            (.lateRoute, "lateRoute", .late),
            (.noTimestampDedupe, "noTimestampDedupe", .duplicated),
            (.ignoreExpiry, "ignoreExpiry", .stale),
            (.expiryReportedAsSuperseded, "expiryReportedAsSuperseded", .misjudged),
            (.routeRejected, "routeRejected", .misrouted),
        ]
    }

    public var kind: StrategyKind { .core }
    /// The resolver reports every reason (through its observer) and the parser every placeholder.
    public var distinctions: StrategyObservation.Reasons { .all }
    let configuration: LinkResolver.Configuration
    let validator = ExampleApp.validator
    let parser = ReferrerParser()
    let faults: Faults
    let clock = ManualClock()
    /// Times the core's operations (``OperationClock``), held so that a reading is not a
    /// `swift_once` call.
    let stopwatch = OperationClock.calibration
    let router = RecordingRouter()
    let observer: AccountObserver
    /// One simulated process, App Group container and resolver per worker, reused by every launch
    /// of every journey (relaunched in place: allocation-free, and equivalent to new ones).
    let process: SimulatedProcess
    let store: InMemoryHandoffStore
    /// Two resolvers over the same process and store: pending capacity 2 and capture queue 2 (even
    /// journeys), and 1 and 1 (odd journeys), so that two pending links overflow a full pending
    /// set and racing captures overflow a full queue.
    let resolvers: (wide: LinkResolver, narrow: LinkResolver)
    /// The resolver of the current journey.
    var resolver: LinkResolver
    var partner: RacePartner?
    /// How racing journeys interleave, and the controlled races' threads (created on first use).
    let schedule: ScheduleMode
    var controlled: ControlledRace?
    /// The worker paired with this one as its races' partner (``RaceDesk``), if any.
    let racePeering: RacePeering?
    /// Whether the run leaves a core to spare for a race's own partner thread (it may spin then).
    let raceSpareCore: Bool
    /// The last controlled race of this strategy (``lastRace``), for `replay` and coverage.
    var lastRace = RaceRecord() {
        didSet { lastRaceWritten = true }
    }
    /// Whether ``lastRace`` may differ from a fresh record.
    var lastRaceWritten = false
    /// Exhaustive: the choices the next race replays before it explores.
    var explorationPrefix: [UInt8] = []
    let mix: ScenarioMix
    /// Copies each racing capture is delivered as (the first and its duplicates, one after the
    /// other on this thread while the partner signals): bursts fill the capture queue.
    static let burstCopies = 4
    /// The first of the two steps the current journey delivered at once (-1: none).
    var racedAt = -1
    /// The record each capture is built in, in place: the validator and the referrer parser write
    /// its link, the capture fills in the rest (a link returned by value is copied at every step).
    var scratch = PendingLink(link: DeepLink(validated: "/")!, source: .appClip, capturedAtNanos: 0, id: 0)
    /// Rounds ``Faults/slowPath`` adds to every journey (about 10 % of a journey's instructions).
    static let slowPathRounds = 500
    /// Where ``Faults/slowPath``'s rounds go, so the optimiser keeps them.
    var slowPathSink: UInt64 = 0

    public init(context: StrategyContext, faults: Faults = []) {
        let ttlSeconds = faults.contains(.ignoreExpiry) ? 31_536_000 : UInt64(context.ttlSeconds)
        self.configuration = LinkResolver.Configuration(
            policy: ExampleApp.policy,
            timeToLiveNanos: ttlSeconds * 1_000_000_000,
            pendingCapacity: 2,
            queueCapacity: 2,
            referrerAccountKey: ExampleApp.referrerAccountKey,
            signing: ExampleApp.signing
        )
        self.faults = faults
        self.schedule = context.schedule
        self.racePeering = context.racePeering
        self.raceSpareCore = context.workerThreads < ResourceUsage.coreCount()
        self.mix = context.mix
        self.observer = AccountObserver(router: router)
        let process = SimulatedProcess()
        self.process = process
        self.store = InMemoryHandoffStore(capacity: 4, consumedCapacity: 8, process: process)
        var narrow = configuration
        narrow.pendingCapacity = 1
        narrow.queueCapacity = 1
        self.resolvers = (
            LinkResolver(
                configuration: configuration,
                store: store,
                router: router,
                observer: observer,
                clock: clock,
                process: process
            ),
            LinkResolver(
                configuration: narrow,
                store: store,
                router: router,
                observer: observer,
                clock: clock,
                process: process
            )
        )
        self.resolver = resolvers.wide
    }

    public mutating func finish() {
        partner?.stop()
        partner = nil
        controlled?.stop()
        controlled = nil
        // A queue the planted fault corrupted would fail the debug build's check when freed.
        if faults.contains(.consumerReadsUnpublished) { resetQueues() }
    }

    /// One run of `journey` (``run(_:into:metrics:)`` repeats it under `exhaustive`).
    mutating func runOnce(
        _ journey: Journey,
        into observation: inout StrategyObservation,
        metrics: inout OperationHistograms
    ) {
        router.reset(journey: journey, twice: faults.contains(.routeTwice), late: faults.contains(.lateRoute))
        racedAt = -1
        // Reassigned only when a race (or an exploration) wrote it: assigning a fresh record
        // releases its trace's buffer every journey.
        if lastRaceWritten {
            lastRace = RaceRecord()
            lastRaceWritten = false
        }
        if faults.contains(.consumerReadsUnpublished) { resetQueues() }
        let narrow = journey.index & 1 == 1
        resolver = narrow ? resolvers.narrow : resolvers.wide
        observer.reset(
            expiryAsSuperseded: faults.contains(.expiryReportedAsSuperseded),
            placeholderMisread: faults.contains(.placeholderMisread),
            pendingCapacityOne: narrow
        )
        let fullBefore = resolver.capturesPastFullQueue
        if faults.contains(.stall), journey.scenario.perturbation == .kill { usleep(1_500_000) }
        if faults.contains(.slowPath) {
            var value = journey.index
            // Non-linear (the shift), so the optimiser cannot fold the rounds into one.
            for _ in 0..<Self.slowPathRounds { value = (value ^ (value >> 29)) &* 6_364_136_223_846_793_005 }
            slowPathSink &+= value
        }
        if faults.contains(.trap), journey.index % 4_096 == 7 {
            preconditionFailure("planted trap (--core-faults trap)")
        }
        // A new install: an empty App Group container, which exists from the first clip write or
        // the first launch, and no process running yet. (The resolver is relaunched by the first
        // launch: nothing reaches it before one.)
        process.restart()
        store.reset()
        // Whether nothing used the store since that reset: a relaunch then has nothing of a dead
        // process to forget (``InMemoryHandoffStore/relaunchInPlace()`` would be a no-op).
        var storeUntouched = true
        var containerExists = false
        var processRunning = false
        var deliveries: UInt64 = 0
        var launched = false
        // Through a span: `journey.events[step]` in a loop copies the inline array per iteration.
        let events = journey.events.span
        // Play's install-begin timestamp: a new one for every install (a reinstall is a new install).
        var installBegin = UInt64(Journey.endSeconds(in: events, count: journey.eventCount)) &+ 1_000_000
        let race = journey.racing ? Self.racingPair(in: journey) : nil
        var step = 0
        while step < journey.eventCount {
            // The app's screen appears within the step its router declined in (the previous one:
            // its clock and step still hold): it signals again, an event it already had, and the
            // link must be offered again.
            if router.takeRetry(), processRunning { resolver.signal(.appReady) }
            let event = events[step]
            let nowNanos = UInt64(event.atSeconds) &* 1_000_000_000
            clock.set(nanos: nowNanos)
            router.step.store(step, ordering: .relaxed)
            switch event.kind {
            case .clipHandoffWrite:
                let slot = event.argument & 1
                if validate(url: journey.link(slot: slot), observation: &observation, metrics: &metrics) {
                    storeUntouched = false
                    fillScratch(source: .appClip, capturedAtNanos: nowNanos, id: 1 + UInt64(slot))
                    // The clip checks a signed link (and its nonce, in the shared container) before
                    // it writes.
                    guard authenticateScratch(observation: &observation) else { break }
                    containerExists = true
                    try? store.save(scratch)
                }
            case .launch:
                // The previous process (if any) dies; the next one finds what the container kept.
                resolver.relaunch()
                if faults.contains(.forgetOnKill) && launched {
                    store.reset()
                } else if !storeUntouched {
                    store.relaunchInPlace()
                }
                storeUntouched = false
                process.restart()
                containerExists = true
                processRunning = true
                launched = true
                if let race, race.capture == step {
                    deliver(race, journey: journey, capture: .launch)
                    step += 2
                    continue
                }
                if let loaded = try? resolver.launch(), loaded > 0 { observation.paths.insert(.launchBatch) }
                if faults.contains(.ignoreLoginGate) { resolver.signal(.loggedIn) }
            case .referrerFetch, .referrerRetry:
                guard processRunning, event.referrerResult.delivered else { break }
                guard parseReferrer(journey.latestLink, observation: &observation, metrics: &metrics) else { break }
                deliveries &+= 1
                let slot: UInt8 = journey.linkCount >= 2 ? 1 : 0
                fillScratch(
                    source: .installReferrer,
                    capturedAtNanos: UInt64(
                        Journey.tapTime(slot: slot, before: step, in: events, count: journey.eventCount)
                    ) &* 1_000_000_000,
                    id: 100 &+ deliveries,
                    installBeginTimestamp: faults.contains(.noTimestampDedupe) ? 0 : installBegin
                )
                guard authenticateScratch(observation: &observation) else { break }
                if captureScratch(step: step, race: race, journey: journey, metrics: &metrics) {
                    step += 2
                    continue
                }
            case .universalLinkOpen:
                guard processRunning else { break }
                let slot = event.argument & 1
                guard validate(url: journey.link(slot: slot), observation: &observation, metrics: &metrics) else {
                    break
                }
                fillScratch(source: .universalLink, capturedAtNanos: nowNanos, id: 200 + UInt64(slot))
                guard authenticateScratch(observation: &observation) else { break }
                if captureScratch(step: step, race: race, journey: journey, metrics: &metrics) {
                    step += 2
                    continue
                }
            case .appReady, .loginSucceeded, .sessionRestored, .logout:
                guard processRunning, let signal = Self.signal(for: event) else { break }
                if case .loggedOut = signal, resolver.pendingCount > 0 { observation.paths.insert(.logoutClosedGate) }
                let routesBefore = router.count
                let start = stopwatch.now()
                resolver.signal(signal)
                if router.count > routesBefore {
                    metrics.gateOpenToRoute.record(
                        stopwatch.nanos(from: start, to: router.lastRouteReading.load(ordering: .relaxed))
                    )
                }
            case .clockJump:
                if processRunning { resolver.tick() }
            case .kill:
                if processRunning { resolver.simulateKill() }
                processRunning = false
            case .appDeleted:
                // The container (store and consumed marks) goes with the app.
                if processRunning { resolver.simulateKill() }
                processRunning = false
                store.reset()
                containerExists = false
                installBegin &+= 1
            case .clipDataPurged:
                store.reset()
                containerExists = false
            case .crashArmed:
                if containerExists {
                    storeUntouched = false
                    store.armKill(at: KillPoint(.after, .markConsumed))
                }
            case .tap, .clipInvoked, .storeVisit, .install, .loginFailed, .clipboardCopy:
                break
            }
            step += 1
        }
        if router.takeRetry(), processRunning { resolver.signal(.appReady) }
        // Audit before the process ends: a live process whose capture queue still holds a link
        // left that capture undecided (nothing else will ever drain it).
        if processRunning, resolver.queuedCount > 0 { observation.auditFinding = .strandedCapture }
        // A racing journey's queue must also be sound: a record published into a slot its
        // consumer already freed is stranded there too (no position reads it again).
        if racedAt >= 0, resolver.queueInvariantViolation != nil { observation.auditFinding = .strandedCapture }
        if resolver.capturesPastFullQueue != fullBefore { observation.paths.insert(.queueFull) }
        // The process ends with the journey (the next journey's first launch relaunches it).
        process.kill()
        router.copy(into: &observation)
        observer.copy(into: &observation)
        observation.raceStep = racedAt
        if racedAt >= 0 { observation.paths.insert(.racedCapture) }
        if lastRace.hang != nil { observation.auditFinding = .scheduleHung }
        if racedAt >= 0 { observation.schedule = lastRace.coverage }
    }

    /// The first capture in the journey that is immediately followed by a gate signal, preferring
    /// a capture of a link (a referrer, a universal link) to a launch's load.
    static func racingPair(in journey: Journey) -> RacingPair? {
        racingPair(in: journey, launches: false) ?? racingPair(in: journey, launches: true)
    }

    static func racingPair(in journey: Journey, launches: Bool) -> RacingPair? {
        guard journey.eventCount >= 2 else { return nil }
        let events = journey.events.span
        for step in 0..<(journey.eventCount - 1) {
            let capture = events[step]
            let isCapture: Bool
            switch capture.kind {
            case .launch: isCapture = launches
            case .universalLinkOpen: isCapture = true
            case .referrerFetch, .referrerRetry: isCapture = capture.referrerResult.delivered
            case .tap, .clipInvoked, .clipHandoffWrite, .storeVisit, .install, .appReady, .loginSucceeded, .loginFailed,
                .sessionRestored, .logout, .kill, .crashArmed, .clockJump, .clipboardCopy, .appDeleted, .clipDataPurged:
                isCapture = false
            }
            guard isCapture, let signal = signal(for: events[step + 1]) else { continue }
            if case .loggedOut = signal { continue }
            return RacingPair(capture: step, signal: signal)
        }
        return nil
    }

    /// Sets the scratch record's capture fields (its link is already validated into it).
    mutating func fillScratch(
        source: LinkSource,
        capturedAtNanos: UInt64,
        id: UInt64,
        installBeginTimestamp: UInt64 = 0
    ) {
        scratch.source = source
        scratch.capturedAtNanos = capturedAtNanos
        scratch.id = id
        scratch.installBeginTimestamp = installBeginTimestamp
        // A referrer's campaign and account were read into the scratch record; other sources carry
        // neither.
        if source == .installReferrer {
            scratch.attribution.clickTimestampSeconds = capturedAtNanos / 1_000_000_000
        } else {
            scratch.attribution = LinkAttribution()
            scratch.account = nil
        }
    }

    /// Captures the scratch record: raced against the next step's signal when `step` starts the
    /// journey's race (returns true: that step is delivered too), otherwise timed into the enqueue
    /// histogram.
    mutating func captureScratch(
        step: Int,
        race: RacingPair?,
        journey: Journey,
        metrics: inout OperationHistograms
    ) -> Bool {
        if let race, race.capture == step {
            // Referrer re-deliveries come under new ids (the timestamp dedupes them); a clip or
            // universal link read again keeps its id, and so does a signed link, whose id is its
            // nonce on every delivery (``LinkResolver/authenticate(_:)`` runs on each).
            let signed = LinkCatalog.entry(journey.latestLink).singleUse
            let newIDs = scratch.source == .installReferrer && !signed
            let mine = CaptureBurst(link: scratch, copies: Self.burstCopies, newIDs: newIDs, idOffset: 0)
            var theirs = mine
            theirs.idOffset = 500
            if journey.index & 2 == 0 {
                // The capture races the gate signal; a second capture source (clip and referrer,
                // two handlers) then delivers the same link: two producers at once.
                deliver(
                    race,
                    journey: journey,
                    capture: .captures(mine),
                    theirs: .signalThenCaptures(race.signal, theirs)
                )
            } else {
                // The capture races the gate signal, and the app's navigation hands the link in
                // again from inside the route: those captures meet a queue nobody drains.
                router.reentry.arm(resolver, theirs)
                deliver(race, journey: journey, capture: .captures(mine))
                router.reentry.disarm()
            }
            return true
        }
        let start = stopwatch.now()
        resolver.capture(scratch)
        metrics.enqueue.record(stopwatch.nanos(since: start))
        return false
    }

    /// Runs `capture` on this thread and the pair's signal on the partner thread, at once.
    mutating func deliver(_ pair: RacingPair, journey: Journey, capture: RaceInput, theirs: RaceInput? = nil) {
        // Any route during the race is attributed to the later of the two steps.
        router.step.store(pair.capture + 1, ordering: .relaxed)
        racedAt = pair.capture
        clock.set(nanos: UInt64(journey.events[pair.capture + 1].atSeconds) &* 1_000_000_000)
        race(capture, theirs ?? .signal(pair.signal), journey: journey)
        if faults.contains(.ignoreLoginGate), journey.events[pair.capture].kind == .launch {
            resolver.signal(.loggedIn)
        }
    }

    /// The signal an event makes the app send; a login names its account.
    static func signal(for event: JourneyEvent) -> AppEvent? {
        switch event.kind {
        case .appReady: .appReady
        case .loginSucceeded, .sessionRestored: ExampleApp.login(account: event.argument)
        case .logout: .loggedOut
        case .tap, .clipInvoked, .clipHandoffWrite, .storeVisit, .install, .launch, .referrerFetch, .referrerRetry,
            .loginFailed, .kill, .crashArmed, .clockJump, .universalLinkOpen, .clipboardCopy, .appDeleted,
            .clipDataPurged:
            nil
        }
    }

    /// Validates a clip or universal-link URL into `scratch.link`; a rejection is noted.
    /// Returns whether the link is valid.
    mutating func validate(
        url id: UInt8,
        observation: inout StrategyObservation,
        metrics: inout OperationHistograms
    ) -> Bool {
        let start = stopwatch.now()
        let rejection = CoreStrategy.urlBytes.withBytes(Int(id)) { validator.validate($0, into: &scratch.link) }
        metrics.validate.record(stopwatch.nanos(since: start))
        guard let rejection else { return true }
        return reportRejection(rejection, observation: &observation)
    }

    /// Checks `scratch`'s signature through the resolver (``LinkResolver/authenticate(_:)``: the
    /// example app's ``ExampleApp/signing``); a rejection is noted. Returns whether it may be
    /// captured.
    mutating func authenticateScratch(observation: inout StrategyObservation) -> Bool {
        guard let rejection = resolver.authenticate(&scratch) else { return true }
        observation.paths.insert(rejection == .replayed ? .nonceReplayed : .signatureRejected)
        return reportRejection(rejection, observation: &observation)
    }

    /// Notes a rejection in the observation (as the fault catalogue says); returns whether the
    /// link is captured anyway (only under ``Faults/routeRejected``).
    mutating func reportRejection(_ rejection: LinkRejection, observation: inout StrategyObservation) -> Bool {
        var reason = Self.rejectionReasons[rejection] ?? .malformedReferrer
        if faults.contains(.wrongRejectionReason) {
            let all = RejectionReason.allCases
            reason = all[(all.firstIndex(of: reason)! + 1) % all.count]
        }
        observation.reject(reason)
        guard faults.contains(.routeRejected) else { return false }
        scratch.link = DeepLink(validated: "/")!
        return true
    }

    /// Reads a referrer into `scratch` (its link, campaign and account; ``ReferrerParser/read(_:validator:accountKey:into:)``);
    /// a referrer without a link goes to the resolver (which reports organic
    /// and not-set installs as decisions), a rejection is noted. Returns whether it carried a
    /// valid link.
    mutating func parseReferrer(
        _ id: UInt8,
        observation: inout StrategyObservation,
        metrics: inout OperationHistograms
    ) -> Bool {
        let start = stopwatch.now()
        let accountKey = configuration.referrerAccountKey
        let outcome = CoreStrategy.referrerBytes.withBytes(Int(id)) { bytes in
            parser.read(bytes, validator: validator, accountKey: accountKey, into: &scratch)
        }
        metrics.parse.record(stopwatch.nanos(since: start))
        switch outcome {
        case .link: return true
        case .organic:
            resolver.captureLinkless(.organic, attribution: scratch.attribution)
            return false
        case .notSet:
            resolver.captureLinkless(.notSet, attribution: scratch.attribution)
            return false
        case .noPayload:
            resolver.captureLinkless(.noPayload, attribution: scratch.attribution)
            return false
        case .rejected(let rejection):
            return reportRejection(rejection, observation: &observation)
        case .error(let error):
            observation.reject(Self.rejectionReason(for: error))
            return false
        }
    }

    /// The harness's mirror of each rejection (the oracle does not depend on DeepLinkCore), matched
    /// by name once rather than per rejected journey.
    static let rejectionReasons: [LinkRejection: RejectionReason] = Dictionary(
        uniqueKeysWithValues: LinkRejection.allCases.compactMap { rejection in
            RejectionReason.allCases.first { $0.name == rejection.name }.map { (rejection, $0) }
        }
    )

    /// The harness's mirror of a referrer the parser refused: an ambiguous payload key has its own
    /// reason, a limit is a malformed referrer.
    static func rejectionReason(for error: ReferrerError) -> RejectionReason {
        switch error {
        case .duplicatePayloadKey: .duplicatePayloadKey
        case .inputTooLong, .tooManyFields: .malformedReferrer
        }
    }

    /// The UTF-8 bytes of each catalog referrer (and an empty one).
    static let referrerBytes = UTF8Table(LinkCatalog.entries.map(\.referrer) + [""])

    /// The campaign of each catalog referrer, parsed once: what a referrer's link must still carry
    /// when it reaches the router (through the queue, the machine, the store and any decline).
    static let referrerAttributions: [LinkAttribution] = (0..<referrerBytes.count).map { index in
        var attribution = LinkAttribution()
        _ = referrerBytes.withBytes(index) { bytes in
            ReferrerParser().withReferrer(in: bytes) { parsed in attribution.assign(from: parsed) }
        }
        return attribution
    }

    /// Whether a routed referrer link carries the campaign of the journey's referrer (the latest
    /// tap's: Play hands over the referrer of the latest store visit).
    static func carriesItsCampaign(_ pending: PendingLink, candidates: (UInt8, UInt8)) -> Bool {
        var carried = pending.attribution
        carried.clickTimestampSeconds = 0
        return carried == referrerAttributions[Int(candidates.1)] || carried == referrerAttributions[Int(candidates.0)]
    }
    /// The UTF-8 bytes of each catalog URL (and an empty one).
    static let urlBytes = UTF8Table(LinkCatalog.entries.map(\.url) + [""])
    /// The canonical link of every routable catalog entry, to name what the router received.
    static let canonicalLinks: [DeepLink?] = LinkCatalog.entries.map { entry in
        guard case .route(let canonical, _) = entry.verdict else { return nil }
        return DeepLink(validated: canonical)
    }
    /// The UTF-8 bytes of each canonical link (empty for entries that never route): compared in
    /// place, where comparing `DeepLink?` values copies two 512-byte links per check.
    static let canonicalBytes: [[UInt8]] = canonicalLinks.map { link in link?.withUTF8Bytes { Array($0) } ?? [] }

    /// The catalog id of the routable entry whose canonical link is `bytes`, trying `candidates`
    /// first (the journey's own links), or `LinkCatalog.unknownID`.
    static func catalogID(of bytes: UnsafeRawBufferPointer, candidates: (UInt8, UInt8)) -> UInt8 {
        func matches(_ index: Int) -> Bool {
            // memcmp: the generic `elementsEqual` walks byte by byte through iterators.
            canonicalBytes[index].withUnsafeBytes { canonical in
                guard !canonical.isEmpty, canonical.count == bytes.count else { return false }
                return memcmp(canonical.baseAddress!, bytes.baseAddress!, bytes.count) == 0
            }
        }
        // The later candidate wins when both match, then the last catalog entry.
        if matches(Int(candidates.1)) { return candidates.1 }
        if matches(Int(candidates.0)) { return candidates.0 }
        var id = LinkCatalog.unknownID
        for index in canonicalBytes.indices where matches(index) { id = UInt8(index) }
        return id
    }
}

/// A capture and the gate signal right after it, delivered at once in a racing journey.
struct RacingPair {
    var capture: Int
    var signal: AppEvent
}

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

/// The resolver's own account of one journey, from its observer's decisions and the simulation's
/// crash-window reports: which reasons it gave for links it did not route (expired, superseded,
/// crash window) and which decision paths it took
/// (for `coverage.csv`). Counted from outside the core: the resolver only builds the decisions this
/// observer asks for, and never the frequent `waitingForGate`.
///
/// Thread safety: the decisions may come from the worker or its race partner (a full queue is
/// reported by the capturing thread, the rest by the drainer), so the account is one atomic word
/// that decisions OR bits into: no lock round trip per decision. The worker sets it in ``reset``
/// and reads it in ``copy(into:)`` while no partner runs.
final class AccountObserver: ResolverObserver, CrashWindowObserver {
    /// Bits 0-7: the reported reasons; 8-23: the decision paths; then the journey's three
    /// settings.
    let word = Atomic<UInt32>(0)
    static let pathsShift: UInt32 = 8
    static let expiryAsSupersededBit: UInt32 = 1 << 25
    static let placeholderMisreadBit: UInt32 = 1 << 26
    /// The journey's resolver holds one pending link: every supersede is an overflow.
    static let pendingCapacityOneBit: UInt32 = 1 << 27

    /// The journey's router: whether it handled a route yet is whether a link was routed (the
    /// resolver reports `routed` right after the router handles it, on the same thread), so the
    /// observer need not ask for `routed` decisions, each a copy of the record.
    let router: RecordingRouter

    init(router: RecordingRouter) { self.router = router }

    static func reasons(_ reasons: StrategyObservation.Reasons) -> UInt32 { UInt32(reasons.rawValue) }
    static func paths(_ paths: DecisionPaths) -> UInt32 { UInt32(paths.rawValue) << pathsShift }

    func reset(expiryAsSuperseded: Bool, placeholderMisread: Bool, pendingCapacityOne: Bool) {
        var settings: UInt32 = 0
        if expiryAsSuperseded { settings |= Self.expiryAsSupersededBit }
        if placeholderMisread { settings |= Self.placeholderMisreadBit }
        if pendingCapacityOne { settings |= Self.pendingCapacityOneBit }
        word.store(settings, ordering: .relaxed)
    }

    func resolverDecided(_ decision: ResolverDecision) {
        // Relaxed: the settings were stored before any thread of this journey started.
        let current = word.load(ordering: .relaxed)
        // Dispatched on the kind: a `switch` over the decision itself copies it (its record
        // included) before matching, and only a duplicate's and a linkless referrer's payloads
        // are read.
        let kind = decision.kind
        let add: UInt32
        if kind == .superseded {
            // With room for one link, a second one can only push the first out; with room for
            // two (and at most two links a journey), a supersede happens when the gate opens.
            add =
                Self.reasons(.superseded)
                | Self.paths(current & Self.pendingCapacityOneBit != 0 ? .overflowSupersede : .supersededOlder)
        } else if kind == .expired {
            add =
                Self.reasons(current & Self.expiryAsSupersededBit != 0 ? .superseded : .expired)
                | Self.paths(.expiredWhileWaiting)
        } else if kind == .duplicate, case .duplicate(let link) = decision {
            // Duplicates are decided by the drainer, which made any earlier router call itself.
            var paths: DecisionPaths = router.count > 0 ? .duplicateOfRouted : []
            if link.source == .installReferrer, link.installBeginTimestamp != 0 {
                // Every referrer delivery has a new id: only the timestamp can match it.
                paths.insert(.duplicateByInstallTimestamp)
            } else {
                paths.insert(.duplicateByID)
            }
            add = Self.paths(paths)
        } else if kind == .queueFull {
            add = Self.paths(.queueFull)
        } else if kind == .routeDeclined {
            add = Self.paths(.routeDeclined)
        } else if kind == .heldForAccount {
            add = Self.paths(.heldForAccount)
        } else if kind == .linklessReferrer, case .linklessReferrer(let linkless, _) = decision {
            let misread = current & Self.placeholderMisreadBit != 0
            switch linkless {
            case .organic: add = Self.reasons(misread ? .notSet : .organic)
            case .notSet: add = Self.reasons(misread ? .organic : .notSet)
            case .noPayload: return
            }
        } else {
            // Refused referrers, rejections, waits, store failures and unreadable records.
            return
        }
        word.bitwiseOr(add, ordering: .relaxed)
    }

    /// Every kind but the frequent `waitingForGate`, the harness's own `rejected` and `routed`
    /// (the router saw those).
    var interests: ResolverDecision.Kinds {
        [.superseded, .expired, .duplicate, .queueFull, .routeDeclined, .linklessReferrer, .heldForAccount]
    }

    /// The simulation's own report (not a decision an app sees): killed after the consumed mark.
    func resolverKilledInCrashWindow(_ link: PendingLink) {
        word.bitwiseOr(Self.reasons(.crashWindow) | Self.paths(.crashWindow), ordering: .relaxed)
    }

    func copy(into observation: inout StrategyObservation) {
        let recorded = word.load(ordering: .relaxed)
        observation.reported.formUnion(StrategyObservation.Reasons(rawValue: UInt8(truncatingIfNeeded: recorded)))
        observation.paths.formUnion(DecisionPaths(rawValue: UInt16(truncatingIfNeeded: recorded >> Self.pathsShift)))
    }
}
