/// How one strategy's racing journeys reach a second thread: a ``ControlledRace`` (a controlled
/// `--schedule`, a planted concurrency fault, or no core to spare: the paired worker, or a partner
/// thread of the race's own, runs the second input) or, under `os` with a core to spare, a
/// ``RacePartner`` thread that spins between races. Every strategy of a run races through one of
/// these, chosen by one rule (``controls(_:faults:spareCore:)``), so a race costs each the same
/// machinery.
///
/// Thread safety: a value type owned by its strategy's worker thread; the races' threads are the
/// machinery's.
struct RaceDelivery {
    let schedule: ScheduleMode
    let peering: RacePeering?
    /// Whether the run leaves a core to spare for a race's own partner thread (it may spin then).
    let spareCore: Bool
    private var controlled: ControlledRace?
    private var partner: RacePartner?

    init(context: StrategyContext) {
        schedule = context.schedule
        peering = context.racePeering
        spareCore = context.workerThreads < ResourceUsage.coreCount()
    }

    /// Whether a race runs under a ``ControlledRace`` rather than on a ``RacePartner``: under a
    /// controlled schedule, with a concurrency fault planted (`faults`, ``ConcurrencyFault`` bits;
    /// `os` then races the same two threads unscheduled), and without a core to spare. A partner
    /// thread would have to be woken onto a core another worker holds, which costs far more than
    /// serving the race on the paired worker (``RaceDesk``; commit cf48f02 has the numbers).
    static func controls(_ schedule: ScheduleMode, faults: UInt8, spareCore: Bool) -> Bool {
        schedule.isControlled || faults != 0 || !spareCore
    }

    /// Delivers `mine` on this thread and `theirs` on another, at once, interleaved by the run's
    /// schedule seeded with `seed` (``ScheduleDecider/seed(of:)``). Returns how many distinct OS
    /// threads delivered them (observed: 1 when a partner did not take its input in time).
    mutating func race(on target: any RaceTarget, _ mine: RaceInput, _ theirs: RaceInput, seed: UInt64) -> Int {
        if schedule == .sequential { return Self.inOrder(on: target, mine, theirs) }
        guard Self.controls(schedule, faults: 0, spareCore: spareCore) else {
            let partner = partner ?? RacePartner()
            self.partner = partner
            partner.race(on: target, mine: mine, theirs: theirs)
            return partner.lastRaceThreads
        }
        let controlled = controlled ?? ControlledRace(peering: peering, spareCore: spareCore)
        self.controlled = controlled
        controlled.run(on: target, mine, theirs, schedule: schedule, seed: seed, faults: 0)
        return controlled.lastRaceThreads
    }

    /// `sequential`: `mine`, then `theirs`, on this thread, with no schedule points. Returns 1 (one
    /// thread delivered them).
    static func inOrder(on target: any RaceTarget, _ mine: RaceInput, _ theirs: RaceInput) -> Int {
        target.deliver(mine)
        target.deliver(theirs)
        return 1
    }

    /// Ends the machinery's threads (the worker is done).
    mutating func finish() {
        partner?.stop()
        partner = nil
        controlled?.stop()
        controlled = nil
    }
}
