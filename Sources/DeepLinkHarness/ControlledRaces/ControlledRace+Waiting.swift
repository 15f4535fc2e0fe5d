/// How a logical thread on an OS thread waits: for the race's lock, and for its turn. On fibers
/// every one of these is nothing: the fibers share the owner's thread, and nothing else touches the
/// race while they run.
extension ControlledRace {
    /// With the lock held: waits until `thread` may run.
    func waitForTurn(_ thread: Int) {
        while !turns.mayRun(thread) { awaitChange(forTurn: spinsForTurn) }
    }

    @inline(__always)
    func acquire() {
        if onFibers { return }
        raceLock.acquire(spinningFor: Self.minimumSpinNanos)
    }

    @inline(__always)
    func release() {
        if onFibers { return }
        raceLock.release()
    }

    /// Wakes the waiters: something they wait for changed.
    @inline(__always)
    func announce() {
        if onFibers { return }
        changes.add(1, ordering: .relaxed)
        raceLock.broadcast(.changed)
    }

    /// Waits for the token: ``awaitChange(idleSpinNanos:followingProgress:parkingOn:)``, spinning
    /// while the holder progresses when `spinning` (``handOffStallNanos``), else
    /// ``minimumSpinNanos``.
    func awaitChange(forTurn spinning: Bool) {
        awaitChange(idleSpinNanos: spinning ? 0 : Self.minimumSpinNanos, followingProgress: spinning)
    }

    /// Returns after the next ``announce()`` (or spuriously; callers recheck): spins with the lock
    /// released, for `idleSpinNanos` or, `followingProgress`, while ``progress`` moves, then parks
    /// on `condition`.
    func awaitChange(
        idleSpinNanos: UInt64,
        followingProgress: Bool = false,
        parkingOn condition: RaceLock.Condition = .changed
    ) {
        let seen = changes.load(ordering: .relaxed)
        if idleSpinNanos > 0 || followingProgress {
            release()
            let unchanged = { self.changes.load(ordering: .relaxed) == seen }
            let caught =
                followingProgress
                ? BoundedSpin.spin(
                    whileProgressing: { self.progress.load(ordering: .relaxed) },
                    stallNanos: Self.handOffStallNanos,
                    while: unchanged
                )
                : BoundedSpin.spin(forNanos: idleSpinNanos, while: unchanged)
            if followingProgress { recordSpin(caught: caught) }
            acquire()
            // Changes are made under the lock: none since `seen` means none can be missed below.
            if changes.load(ordering: .relaxed) != seen { return }
        }
        raceLock.wait(for: condition)
    }
}
