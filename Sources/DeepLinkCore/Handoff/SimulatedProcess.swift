import Synchronization

/// The life of one simulated app process, shared by the objects that live in it (a
/// ``LinkResolver`` and an ``InMemoryHandoffStore``) so that a kill stops all of them at once.
///
/// A real kill stops the process between two instructions; the simulation stops it between two
/// steps: after ``kill()`` the resolver carries out no further action (in particular it calls no
/// router after a consumed mark it already wrote: the *crash window*) and the store persists no
/// further write.
///
/// The word also says whether a controlled scheduler drives the process's threads
/// (``passSchedulePoints(_:)``): a resolver reads it once at every entry anyway, so the check that picks
/// its schedule points costs nothing (Docs/Scheduling.md).
///
/// Thread safety: an atomic word; every member may be called from any thread.
package final class SimulatedProcess: Sendable {
    /// What a resolver entry does, from the one load of the word.
    package enum Run {
        /// Alive, no controlled scheduler: the internals without schedule points.
        case unscheduled
        /// Alive, under a controlled scheduler: the internals through the schedule hook.
        case scheduled
        /// Killed: nothing.
        case killed
    }

    private static let killedBit: UInt8 = 1
    private static let scheduledBit: UInt8 = 2
    /// `killedBit | scheduledBit`; zero for a live process outside a controlled scheduler. A kill
    /// or a restart clears the scheduled bit: a killed process runs nothing, and a restarted one
    /// is a new process, which no race has scheduled yet.
    private let state = Atomic<UInt8>(0)

    package init() {}

    /// Whether the process is still running.
    @inline(__always)
    package var isAlive: Bool { state.load(ordering: .acquiring) & Self.killedBit == 0 }

    /// Whether the process is alive, and whether its resolver passes schedule points.
    @inline(__always)
    package var run: Run {
        let state = state.load(ordering: .acquiring)
        if _fastPath(state == 0) { return .unscheduled }
        return state & Self.killedBit == 0 ? .scheduled : .killed
    }

    /// Harness: whether the process's resolvers pass their schedule points (a controlled
    /// scheduler runs their threads). Call only when no thread is inside a resolver of this
    /// process.
    package func passSchedulePoints(_ pass: Bool) {
        if pass {
            state.bitwiseOr(Self.scheduledBit, ordering: .acquiringAndReleasing)
        } else {
            state.bitwiseAnd(~Self.scheduledBit, ordering: .acquiringAndReleasing)
        }
    }

    /// Simulation: this object stands for the *next* process from now on (it is alive again), so
    /// that a harness can reuse one resolver and store per thread instead of allocating new ones
    /// per launch. Call only when nothing of the dead process still runs (no thread is inside a
    /// resolver or store that shares this process), right before relaunching them
    /// (``InMemoryHandoffStore/relaunchInPlace()``, ``LinkResolver/relaunch()``).
    package func restart() {
        state.store(0, ordering: .releasing)
    }

    /// Kills the process. Idempotent. Returns whether this call was the one that killed it.
    @discardableResult
    package func kill() -> Bool {
        state.exchange(Self.killedBit, ordering: .acquiringAndReleasing) & Self.killedBit == 0
    }
}
