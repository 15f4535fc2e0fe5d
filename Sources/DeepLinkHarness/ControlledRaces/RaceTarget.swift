import DeepLinkCore

/// What a racing journey's inputs are delivered to, from two threads at once: `core`'s resolver,
/// or a peer strategy's state behind its lock (``LockedPeer``). ``ControlledRace`` and
/// ``RacePartner`` deliver to any target the same way, so a race costs every strategy the same
/// machinery.
///
/// Thread safety: ``deliver(_:)`` is called from the race's threads at once (a target is
/// thread-safe); ``passSchedulePoints(_:)`` by the race's owner, before and after the race.
protocol RaceTarget: AnyObject, Sendable {
    /// Delivers one racing input (on the calling thread).
    func deliver(_ input: RaceInput)
    /// Whether the target's synchronisation points are schedule points of the calling thread's
    /// ``ControlledRace`` until the next call (on for a controlled race or a planted fault).
    func passSchedulePoints(_ pass: Bool)
}

extension LinkResolver: RaceTarget {
    func deliver(_ input: RaceInput) {
        switch input {
        case .launch: _ = try? launch()
        case .signal(let event): signal(event)
        case .captures(let burst): burst.deliver(to: self)
        case .signalThenCaptures(let event, let burst):
            signal(event)
            burst.deliver(to: self)
        case .step:
            // A peer's input: `core` never races one.
            assertionFailure("a journey step delivered to a resolver")
        }
    }

    func passSchedulePoints(_ pass: Bool) { process.passSchedulePoints(pass) }
}
