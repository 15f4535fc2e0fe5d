import Synchronization

/// The life of one simulated app process, shared by the objects that live in it (a
/// ``LinkResolver`` and an ``InMemoryHandoffStore``) so that a kill stops all of them at once.
///
/// A real kill stops the process between two instructions; the simulation stops it between two
/// steps: after ``kill()`` the resolver carries out no further action (in particular it calls no
/// router after a consumed mark it already wrote: the *crash window*) and the store persists no
/// further write.
///
/// Thread safety: an atomic flag; every member may be called from any thread.
package final class SimulatedProcess: Sendable {
    private let killed = Atomic<Bool>(false)

    package init() {}

    /// Whether the process is still running.
    package var isAlive: Bool { !killed.load(ordering: .acquiring) }

    /// Simulation: this object stands for the *next* process from now on (it is alive again), so
    /// that a harness can reuse one resolver and store per thread instead of allocating new ones
    /// per launch. Call only when nothing of the dead process still runs (no thread is inside a
    /// resolver or store that shares this process), right before relaunching them
    /// (``InMemoryHandoffStore/relaunchInPlace()``, ``LinkResolver/relaunch()``).
    package func restart() {
        killed.store(false, ordering: .releasing)
    }

    /// Kills the process. Idempotent. Returns whether this call was the one that killed it.
    @discardableResult
    package func kill() -> Bool {
        !killed.exchange(true, ordering: .acquiringAndReleasing)
    }
}
