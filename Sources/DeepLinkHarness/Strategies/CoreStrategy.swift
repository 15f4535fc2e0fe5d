import DeepLinkCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// This project's design, end to end through DeepLinkCore's public capture calls
/// (``ExampleAppCapture``, the calls an app ships with): the App Clip writes its invocation URL into
/// an ``InMemoryHandoffStore`` (the App Group container, with its crash model); each process launch
/// relaunches the worker's ``LinkResolver`` over that store in place (the example app's route
/// policy, ``ExampleApp``, the mix's time-to-live, a virtual ``ManualClock``; a relaunched resolver
/// behaves exactly like a new one, without allocating) and captures what the store kept; Android
/// referrers are captured with Play's install-begin timestamp (a new id per delivery, so
/// re-deliveries must be recognised by that timestamp); the app's `appReady` / login / logout
/// become `signal`s; a kill kills the simulated process and a relaunch starts from the store's
/// image; `crashArmed` arms a kill right after the next consumed mark (the crash window).
///
/// In a journey marked ``Journey/racing``, the first capture and the gate signal that follows it
/// are delivered from two threads at once (this worker and a partner thread), so the resolver's
/// lock-free capture path and its drain hand-off see real races.
///
/// `faults` wires the core up wrongly on purpose, to prove that the harness catches it
/// (``FaultHooks``).
///
/// Thread safety: one instance per worker thread; the partner thread only runs closures handed to
/// it while the worker waits.
package struct CoreStrategy: Strategy {
    package var kind: StrategyKind { .core }
    /// The resolver reports every reason (through its observer) and the parser every placeholder.
    package var distinctions: StrategyObservation.Reasons { .all }
    let configuration: LinkResolver.Configuration
    /// The example app's capture calls: the instance racing bursts capture through too, made with
    /// the first strategy (not in its first racing journey).
    let capture = ExampleAppCapture.shared
    let faults: Faults
    let hooks: FaultHooks
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
    /// The current install's state.
    var install = Install()
    var partner: RacePartner?
    /// How racing journeys interleave, and the controlled races' threads (made with the strategy
    /// when the run races, ``StrategyContext/races``; else on first use).
    let schedule: ScheduleMode
    var controlled: ControlledRace?
    /// The worker paired with this one as its races' partner (``RaceDesk``), if any.
    let racePeering: RacePeering?
    /// Whether the run leaves a core to spare for a race's own partner thread (it may spin then).
    let raceSpareCore: Bool
    /// Whether its controlled races keep their steps (``StrategyContext/recordsRaceTraces``).
    let recordsRaceTraces: Bool
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
    /// The verdict of the first capture of a racing journey's burst, which the burst's thread
    /// writes and this worker reads after the race.
    let racedVerdict = Locked<ReferrerVerdict?>(nil)
    /// Rounds ``Faults/slowPath`` adds to every journey (about 10 % of a journey's instructions).
    static let slowPathRounds = 500
    /// Where ``Faults/slowPath``'s rounds go, so the optimiser keeps them.
    var slowPathSink: UInt64 = 0
    /// The payload a rejected link is captured as under ``Faults/routeRejected``: the home route.
    static let homeRoute = UTF8Table(["/"])

    /// One install of the app: what the journey's steps have done to its container and process.
    struct Install {
        /// Nothing used the store since the journey reset it: a relaunch then has nothing of a
        /// dead process to forget (``InMemoryHandoffStore/relaunchInPlace()`` would be a no-op).
        var storeUntouched = true
        var containerExists = false
        var processRunning = false
        var launched = false
        /// Referrer deliveries so far (each gets a new id).
        var deliveries: UInt64 = 0
        /// Play's install-begin timestamp: a new one for every install (a reinstall is a new one).
        var installBegin: UInt64 = 0
    }

    package init(context: StrategyContext, faults: Faults = []) {
        let hooks = FaultHooks(faults)
        self.configuration = LinkResolver.Configuration(
            policy: ExampleApp.policy,
            timeToLiveNanos: hooks.timeToLiveSeconds(UInt64(context.ttlSeconds)) * 1_000_000_000,
            pendingCapacity: 2,
            queueCapacity: 2,
            referrerAccountKey: ExampleApp.referrerAccountKey,
            signing: ExampleApp.signing
        )
        self.faults = faults
        self.hooks = hooks
        self.schedule = context.schedule
        self.racePeering = context.racePeering
        self.raceSpareCore = context.workerThreads < ResourceUsage.coreCount()
        self.recordsRaceTraces = context.recordsRaceTraces
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
        if context.races, RaceDelivery.controls(schedule, faults: plantedCoreFaults, spareCore: raceSpareCore) {
            controlled = makeControlledRace()
        }
    }

    package mutating func finish() {
        partner?.stop()
        partner = nil
        controlled?.stop()
        controlled = nil
        // A queue the planted fault corrupted would fail the debug build's check when freed.
        if hooks.resetsQueues { resetQueues() }
    }

    /// One run of `journey` (``run(_:into:metrics:)`` repeats it under `exhaustive`): its steps, in
    /// order, as the app lives them.
    mutating func runOnce(
        _ journey: Journey,
        into observation: inout StrategyObservation,
        metrics: inout OperationHistograms
    ) {
        let fullBefore = beginJourney(journey)
        // Through a span: `journey.events[step]` in a loop copies the inline array per iteration.
        let events = journey.events.span
        let race = journey.racing ? Self.racingPair(in: journey) : nil
        var step = 0
        while step < journey.eventCount {
            // The app's screen appears within the step its router declined in (the previous one:
            // its clock and step still hold): it signals again, an event it already had, and the
            // link must be offered again.
            if router.takeRetry(), install.processRunning { resolver.signal(.appReady) }
            let event = events[step]
            let nowNanos = UInt64(event.atSeconds) &* 1_000_000_000
            clock.set(nanos: nowNanos)
            router.step.store(step, ordering: .relaxed)
            // The step that starts the journey's race delivers the next step's signal with it.
            let raced = race.flatMap { $0.capture == step ? $0 : nil }
            var delivered = 1
            switch event.kind {
            case .clipHandoffWrite:
                clipWrite(
                    url: journey.link(slot: event.argument & 1),
                    slot: event.argument & 1,
                    at: nowNanos,
                    &observation,
                    &metrics
                )
            case .launch:
                delivered = launch(raced: raced, journey: journey, &observation)
            case .referrerFetch, .referrerRetry:
                guard install.processRunning, event.referrerResult.delivered else { break }
                let slot: UInt8 = journey.linkCount >= 2 ? 1 : 0
                let tapNanos =
                    UInt64(Journey.tapTime(slot: slot, before: step, in: events, count: journey.eventCount))
                    &* 1_000_000_000
                delivered = referrer(
                    journey.latestLink,
                    tapNanos: tapNanos,
                    raced: raced,
                    journey,
                    &observation,
                    &metrics
                )
            case .universalLinkOpen:
                guard install.processRunning else { break }
                let slot = event.argument & 1
                delivered = universalLink(
                    journey.link(slot: slot),
                    slot: slot,
                    at: nowNanos,
                    raced: raced,
                    journey,
                    &observation,
                    &metrics
                )
            case .appReady, .loginSucceeded, .sessionRestored, .logout:
                guard install.processRunning, let signal = Self.signal(for: event) else { break }
                self.signal(signal, &observation, &metrics)
            case .clockJump:
                if install.processRunning { resolver.tick() }
            case .kill:
                if install.processRunning { resolver.simulateKill() }
                install.processRunning = false
            case .appDeleted:
                // The container (store and consumed marks) goes with the app.
                if install.processRunning { resolver.simulateKill() }
                install.processRunning = false
                store.reset()
                install.containerExists = false
                install.installBegin &+= 1
            case .clipDataPurged:
                store.reset()
                install.containerExists = false
            case .crashArmed:
                if install.containerExists {
                    install.storeUntouched = false
                    store.armKill(at: KillPoint(.after, .markConsumed))
                }
            case .tap, .clipInvoked, .storeVisit, .install, .loginFailed, .clipboardCopy:
                break
            }
            step += delivered
        }
        endJourney(fullBefore: fullBefore, &observation)
    }

    /// A new install: the journey's resolver, router and observer set up, the faults planted, an
    /// empty App Group container (which exists from the first clip write or the first launch) and
    /// no process running yet (the resolver is relaunched by the first launch: nothing reaches it
    /// before one). Returns the resolver's count of captures past a full queue so far.
    mutating func beginJourney(_ journey: Journey) -> Int {
        router.reset(journey: journey, twice: hooks.routesTwice, late: hooks.routesLate)
        racedAt = -1
        // Reassigned only when a race (or an exploration) wrote it: assigning a fresh record
        // releases its trace's buffer every journey.
        if lastRaceWritten {
            lastRace = RaceRecord()
            lastRaceWritten = false
        }
        if hooks.resetsQueues { resetQueues() }
        let narrow = journey.index & 1 == 1
        resolver = narrow ? resolvers.narrow : resolvers.wide
        observer.reset(
            expiryAsSuperseded: hooks.expiryAsSuperseded,
            placeholderMisread: hooks.placeholderMisread,
            pendingCapacityOne: narrow
        )
        let fullBefore = resolver.capturesPastFullQueue
        hooks.beforeJourney(journey, &slowPathSink)
        process.restart()
        store.reset()
        let endSeconds = Journey.endSeconds(in: journey.events.span, count: journey.eventCount)
        install = Install(installBegin: UInt64(endSeconds) &+ 1_000_000)
        return fullBefore
    }

    /// The journey's end: a declined link's owed signal, the audits of a process that ends now,
    /// and what the router, the observer and any race saw.
    mutating func endJourney(fullBefore: Int, _ observation: inout StrategyObservation) {
        if router.takeRetry(), install.processRunning { resolver.signal(.appReady) }
        // Audit before the process ends: a live process whose capture queue still holds a link
        // left that capture undecided (nothing else will ever drain it).
        if install.processRunning, resolver.queuedCount > 0 { observation.auditFinding = .strandedCapture }
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
}
