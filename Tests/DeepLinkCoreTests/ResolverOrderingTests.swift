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
        outcome.crashWindows = observer.crashWindows.count
        for decision in observer.decisions {
            if case .storeFailed = decision { outcome.storeFailures += 1 }
        }
        return outcome
    }

    enum TwoLinkStep: CaseIterable {
        case captureOrder, captureProduct, appReady, login, logout, killRelaunch
    }

    /// Two different links (an older order that needs a login, a newer product that needs only
    /// `appReady`) in every ordering: each is decided at most once, never early, the order never
    /// routes while the newer product waits, and when the last process ends ready and logged in,
    /// nothing is left pending.
    @Test(arguments: KillMode.allCases)
    func everyOrderingOfTwoLinksKeepsTheInvariants(mode: KillMode) throws {
        let orderings = Self.permutations(TwoLinkStep.allCases)
        var superseded = 0
        for steps in orderings + orderings.map({ $0 + [.appReady, .login] }) {
            let trace = "\(mode) \(steps)"
            let outcome = try runTwoLinks(steps, mode: mode)
            for id in [UInt64(1), 2] {
                #expect(outcome.terminalDecisions[id, default: 0] <= 1, "decided twice: \(id) \(trace)")
            }
            #expect(outcome.violations.isEmpty, "\(outcome.violations) \(trace)")
            if outcome.finalGateOpen {
                #expect(outcome.leftPending == 0, "left pending: \(trace)")
            }
            superseded += outcome.superseded
        }
        #expect(superseded > 0)
    }

    struct TwoLinkOutcome {
        var terminalDecisions: [UInt64: Int] = [:]
        var superseded = 0
        var violations: [String] = []
        var finalGateOpen = false
        var leftPending = 0
    }

    func runTwoLinks(_ steps: [TwoLinkStep], mode: KillMode) throws -> TwoLinkOutcome {
        let order = ResolverFixtures.link("/orders/1", id: 1, at: 10)
        let product = ResolverFixtures.link("/product/2", id: 2, at: 20)
        let world = Mutex(World())
        let productDelivered = Mutex(false)
        let observer = RecordingObserver()
        let violations = Mutex<[String]>([])
        let router = RecordingRouter { link in
            let gate = world.withLock { $0 }
            if link == order.link {
                if !(gate.appReady && gate.loggedIn) { violations.withLock { $0.append("order early") } }
                // Latest wins: the order may route only if the product never arrived or is decided.
                let productDecided =
                    observer.crashWindows.contains { $0.id == 2 }
                    || observer.terminal.contains { decision in
                        if case .routed(let link) = decision { return link.id == 2 }
                        return false
                    }
                if productDelivered.withLock({ $0 }), !productDecided {
                    violations.withLock { $0.append("order routed over a pending newer product") }
                }
            } else if !gate.appReady {
                violations.withLock { $0.append("product early") }
            }
        }
        var app = SimulatedApp(router: router, observer: observer)
        switch mode {
        case .betweenSteps: break
        case .afterConsumedMark: app.store.armKill(at: KillPoint(.after, .markConsumed))
        case .beforeConsumedMark: app.store.armKill(at: KillPoint(.before, .markConsumed))
        }
        for step in steps {
            let alive = app.process.isAlive
            switch step {
            case .captureOrder:
                app.resolver.capture(order)
            case .captureProduct:
                if alive { productDelivered.withLock { $0 = true } }
                app.resolver.capture(product)
            case .appReady:
                if alive { world.withLock { $0.appReady = true } }
                app.resolver.signal(.appReady)
            case .login:
                if alive { world.withLock { $0.loggedIn = true } }
                app.resolver.signal(.loggedIn)
            case .logout:
                if alive { world.withLock { $0.loggedIn = false } }
                app.resolver.signal(.loggedOut)
            case .killRelaunch:
                world.withLock { $0 = World() }
                app = app.relaunch(router: router, observer: observer)
            }
        }
        var outcome = TwoLinkOutcome()
        for link in observer.crashWindows { outcome.terminalDecisions[link.id, default: 0] += 1 }
        for decision in observer.decisions {
            switch decision {
            case .routed(let link), .expired(let link, _), .duplicate(let link):
                outcome.terminalDecisions[link.id, default: 0] += 1
            case .superseded(let link, let newerID):
                outcome.terminalDecisions[link.id, default: 0] += 1
                outcome.superseded += 1
                // Latest wins: only the older order can lose, and only to the newer product.
                if link.id != order.id || newerID != product.id {
                    outcome.violations.append("\(link.id) superseded by \(newerID)")
                }
            case .storeFailed(let link, _, _):
                outcome.violations.append("store failed for \(link.id)")
            default:
                break
            }
        }
        outcome.violations += violations.withLock { $0 }
        let gate = world.withLock { $0 }
        outcome.finalGateOpen = app.process.isAlive && gate.appReady && gate.loggedIn
        outcome.leftPending = try app.store.loadPending().pending.count + app.resolver.pendingCount
        return outcome
    }
}
