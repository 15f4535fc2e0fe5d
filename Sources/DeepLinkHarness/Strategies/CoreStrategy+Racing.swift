import DeepLinkCore

// A racing journey's capture: a burst of copies of the payload the journey names, each through the
// example app's public capture call (``CaptureBurst``) on the race's thread, at once with the next
// step's signal.
extension CoreStrategy {
    /// Delivers `burst` as ``burstCopies`` copies, raced against the pair's signal (the signal's
    /// step is delivered too). Returns the verdict of this thread's first copy, which the journey
    /// notes as it would a capture outside a race (`nil`: the race ended before it).
    mutating func race(_ pair: RacingPair, journey: Journey, _ burst: CaptureBurst) -> ReferrerVerdict? {
        var mine = burst
        mine.copies = Self.burstCopies
        var theirs = mine
        theirs.idOffset = 500
        mine.firstVerdict = Unmanaged.passUnretained(racedVerdict)
        racedVerdict.withLock { $0 = nil }
        if journey.index & 2 == 0 {
            // The capture races the gate signal; a second capture source (clip and referrer,
            // two handlers) then delivers the same payload: two producers at once.
            deliver(pair, journey: journey, capture: .captures(mine), theirs: .signalThenCaptures(pair.signal, theirs))
        } else {
            // The capture races the gate signal, and the app's navigation hands the payload in
            // again from inside the route: those captures meet a queue nobody drains.
            router.reentry.arm(resolver, theirs)
            deliver(pair, journey: journey, capture: .captures(mine))
            router.reentry.disarm()
        }
        return racedVerdict.withLock { $0 }
    }

    /// Runs `capture` on this thread and the pair's signal on the partner thread, at once.
    mutating func deliver(_ pair: RacingPair, journey: Journey, capture: RaceInput, theirs: RaceInput? = nil) {
        // Any route during the race is attributed to the later of the two steps.
        router.step.store(pair.capture + 1, ordering: .relaxed)
        racedAt = pair.capture
        clock.set(nanos: UInt64(journey.events[pair.capture + 1].atSeconds) &* 1_000_000_000)
        // Who partners the race (fibers, the paired worker, or a partner thread) is the race
        // machinery's choice (``RaceDelivery``).
        race(capture, theirs ?? .signal(pair.signal), journey: journey)
        if journey.events[pair.capture].kind == .launch { hooks.afterLaunch(resolver) }
    }
}
