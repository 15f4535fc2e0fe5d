import DeepLinkCore
import Synchronization
import Testing

/// Every ordering of a small event set, through the real front, store and crash model, checked
/// against the resolver's invariants rather than against hard-coded outcomes.
@Suite struct ResolverOrderingTests {
    enum Step: CaseIterable {
        case capture, appReady, login, logout, killRelaunch, duplicate
    }

    /// Where the first process dies on its own (besides the `killRelaunch` step).
    enum KillMode: CaseIterable {
        /// Only the `killRelaunch` step kills (between two steps).
        case betweenSteps
        /// The first process dies right after the consumed mark: the crash window.
        case afterConsumedMark
        /// The first process dies right before the consumed mark: the link must survive.
        case beforeConsumedMark
    }

    /// What the test knows about the current process, read by the router at each call.
    struct World: Sendable {
        var appReady = false
        var loggedIn = false
        var routes = 0
        var earlyRoutes = 0
    }

    static func permutations<T>(_ items: [T]) -> [[T]] {
        guard items.count > 1 else { return [items] }
        var result: [[T]] = []
        for index in items.indices {
            var rest = items
            let head = rest.remove(at: index)
            for tail in permutations(rest) { result.append([head] + tail) }
        }
        return result
    }

    @Test(arguments: KillMode.allCases)
    func everyOrderingKeepsTheInvariants(mode: KillMode) throws {
        let orderings = Self.permutations(Step.allCases)
        #expect(orderings.count == 720)
        var routedRuns = 0
        var crashWindowRuns = 0
        // Each ordering alone, and followed by `appReady, login` in whatever process is last: the
        // second form re-opens the gate after a relaunch, where a forgotten consumed mark would route
        // the link a second time.
        let runs = orderings.map { $0 } + orderings.map { $0 + [.appReady, .login] }
        for steps in runs {
            let outcome = try run(steps, mode: mode)
            let trace = "\(mode) \(steps)"
            // Never twice: across every process of the run, at most one route or crash window.
            #expect(outcome.routes + outcome.crashWindows <= 1, "routed twice: \(trace)")
            // Never early.
            #expect(outcome.earlyRoutes == 0, "routed before its gate: \(trace)")
            // At least once: the link reached a live process, and the last process is alive with its
            // gate open at the end.
            if outcome.delivered, outcome.finalGateOpen {
                #expect(outcome.routes + outcome.crashWindows == 1, "never routed: \(trace)")
            }
            // The crash window exists only when the kill lands right after the consumed mark.
            if mode != .afterConsumedMark { #expect(outcome.crashWindows == 0, "crash window: \(trace)") }
            #expect(outcome.storeFailures == 0, "store failed: \(trace)")
            routedRuns += outcome.routes
            crashWindowRuns += outcome.crashWindows
        }
        // The set is not vacuous: some runs route, and the crash-window mode does hit the window.
        #expect(routedRuns > 0)
        if mode == .afterConsumedMark { #expect(crashWindowRuns > 0) }
    }

    struct Outcome {
        var routes = 0
        var earlyRoutes = 0
        var crashWindows = 0
        var storeFailures = 0
        var delivered = false
        var finalGateOpen = false
    }

    func run(_ steps: [Step], mode: KillMode) throws -> Outcome {
        let world = Mutex(World())
        let router = RecordingRouter { _ in
            world.withLock { world in
                world.routes += 1
                if !(world.appReady && world.loggedIn) { world.earlyRoutes += 1 }
            }
        }
        let observer = RecordingObserver()
        var app = SimulatedApp(router: router, observer: observer)
        switch mode {
        case .betweenSteps: break
        case .afterConsumedMark: app.store.armKill(at: KillPoint(.after, .markConsumed))
        case .beforeConsumedMark: app.store.armKill(at: KillPoint(.before, .markConsumed))
        }
        let original = ResolverFixtures.link("/orders/1", id: 1, source: .installReferrer, installBegin: 77)
        let redelivery = ResolverFixtures.link("/orders/1", id: 2, source: .installReferrer, installBegin: 77)
        var delivered = false
        for step in steps {
            switch step {
            case .capture, .duplicate:
                if app.process.isAlive { delivered = true }
                app.resolver.capture(step == .capture ? original : redelivery)
            case .appReady:
                if app.process.isAlive { world.withLock { $0.appReady = true } }
                app.resolver.signal(.appReady)
            case .login:
                if app.process.isAlive { world.withLock { $0.loggedIn = true } }
                app.resolver.signal(.loggedIn)
            case .logout:
                if app.process.isAlive { world.withLock { $0.loggedIn = false } }
                app.resolver.signal(.loggedOut)
            case .killRelaunch:
                world.withLock { $0 = World(routes: $0.routes, earlyRoutes: $0.earlyRoutes) }
                app = app.relaunch(router: router, observer: observer)
            }
        }
        let final = world.withLock { $0 }
        var outcome = Outcome(routes: final.routes, earlyRoutes: final.earlyRoutes, delivered: delivered)
        outcome.finalGateOpen = app.process.isAlive && final.appReady && final.loggedIn
        for decision in observer.decisions {
            switch decision {
            case .crashWindow: outcome.crashWindows += 1
            case .storeFailed: outcome.storeFailures += 1
            default: break
            }
        }
        return outcome
    }
}
