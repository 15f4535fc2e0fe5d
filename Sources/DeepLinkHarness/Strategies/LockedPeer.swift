import DeepLinkCore
import Synchronization

/// A peer strategy made thread-safe as its real implementation would be: its whole state (and the
/// router calls it made) behind one `Locked`, taken by every event. A racing journey's raced pair
/// of events (the same pair `core` races, ``CoreStrategy/racingPair(in:)``) is delivered from two
/// threads at once through the same machinery as `core`'s (``RaceDelivery``): under a controlled
/// schedule the lock's acquire and release are the race's schedule points (`lock_acquire`,
/// `lock_release`), so the schedule decides which event takes the lock first; under `os` the two
/// threads contend for it for real, and a missing lock would be a data race.
///
/// Thread safety: ``run(_:into:races:)`` is called by the owning worker only; ``deliver(_:)`` from
/// the race's threads at once (each takes the lock).
final class LockedPeer<Model: PeerModel>: RaceTarget {
    private struct Shared {
        var model: Model
        var observation = StrategyObservation()
        /// The racing journey, set before its race: the events the race's inputs name.
        var journey: Journey?
        /// The step a router call during the race is recorded at: the later of the two, as `core`
        /// records it.
        var routeStep = 0

        /// Handles the racing journey's event `step` (its launch's process already started).
        mutating func handleRaced(_ step: Int) {
            guard let journey else { return }
            model.handle(journey.events[step], of: journey, step: routeStep, into: &observation)
        }
    }

    private let shared: Locked<Shared>
    /// Whether the lock's acquire and release are schedule points (a controlled race is running).
    private let scheduled = Atomic<Bool>(false)

    init(_ model: Model) {
        shared = Locked(Shared(model: model))
    }

    /// Runs `journey` from a fresh install: each event under the lock, the raced pair (if the
    /// journey races) from two threads through `races`.
    func run(_ journey: Journey, into observation: inout StrategyObservation, races: inout RaceDelivery) {
        shared.withLock { shared in
            shared.model.install()
            shared.observation = StrategyObservation()
        }
        let pair = journey.racing ? CoreStrategy.racingPair(in: journey) : nil
        let events = journey.events.span
        var step = 0
        var threads = 0
        while step < journey.eventCount {
            let event = events[step]
            if let pair, pair.capture == step {
                shared.withLock { shared in
                    shared.journey = journey
                    shared.routeStep = step + 1
                    if event.kind == .launch { shared.model.startProcess() }
                }
                threads = races.race(on: self, .step(step), .step(step + 1), seed: ScheduleDecider.seed(of: journey))
                step += 2
                continue
            }
            shared.withLock { shared in
                if event.kind == .launch { shared.model.startProcess() }
                shared.model.handle(event, of: journey, step: step, into: &shared.observation)
            }
            step += 1
        }
        observation = shared.withLock { shared in
            shared.journey = nil
            return shared.observation
        }
        if let pair {
            observation.raceStep = pair.capture
            observation.raceThreads = UInt8(truncatingIfNeeded: threads)
        }
    }

    func deliver(_ input: RaceInput) {
        guard case .step(let step) = input else {
            assertionFailure("a resolver's input delivered to a peer")
            return
        }
        if scheduled.load(ordering: .relaxed) {
            shared.withLock(_Scheduled()) { $0.handleRaced(step) }
        } else {
            shared.withLock { $0.handleRaced(step) }
        }
    }

    func passSchedulePoints(_ pass: Bool) { scheduled.store(pass, ordering: .relaxed) }
}
