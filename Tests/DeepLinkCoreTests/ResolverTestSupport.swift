import DeepLinkCore
import DeepLinkCoreTestSupport
import Synchronization

/// Builders shared by the resolver and handoff-store suites.
enum ResolverFixtures {
    static func link(
        _ path: String,
        id: UInt64,
        at capturedAtNanos: UInt64 = 0,
        source: LinkSource = .appClip,
        installBegin: UInt64 = 0
    ) -> PendingLink {
        pendingLink(path, id: id, at: capturedAtNanos, source: source, installBegin: installBegin)
    }

    static func machine(ttl: UInt64 = 1_000, pendingCapacity: Int = 4) -> ResolverStateMachine {
        ResolverStateMachine(policy: TestApp.policy, timeToLiveNanos: ttl, pendingCapacity: pendingCapacity)
    }
}

extension ResolverStateMachine {
    /// The first action and every further one of the same step.
    mutating func drain(_ first: Action, now: UInt64) -> [Action] {
        var actions: [Action] = []
        var action = first
        while action != .none {
            actions.append(action)
            action = nextAction(now: now)
        }
        return actions
    }
}

/// Records every link it handled; `ready` decides (default: always), and a link it is not ready
/// for is counted in ``declines`` instead.
final class RecordingRouter: Router {
    private let calls = Mutex<[PendingLinkRoute]>([])
    private let declined = Mutex<[PendingLink]>([])
    /// Called inside `route`, after recording (for re-entrancy tests).
    let onRoute: (@Sendable (DeepLink) -> Void)?
    let ready: @Sendable (PendingLink) -> Bool

    init(
        onRoute: (@Sendable (DeepLink) -> Void)? = nil,
        ready: @escaping @Sendable (PendingLink) -> Bool = { _ in true }
    ) {
        self.ready = ready
        self.onRoute = onRoute
    }

    func route(_ link: PendingLink) -> RouteResult {
        guard ready(link) else {
            declined.withLock { $0.append(link) }
            return .notReady
        }
        calls.withLock { $0.append(PendingLinkRoute(link: link.link, source: link.source, account: link.account)) }
        onRoute?(link.link)
        return .handled
    }

    /// The links it answered `notReady` for, in order.
    var declines: [PendingLink] { declined.withLock { $0 } }

    var routes: [PendingLinkRoute] { calls.withLock { $0 } }
    var paths: [String] { routes.map(\.link.string) }
}

struct PendingLinkRoute: Sendable, Equatable {
    var link: DeepLink
    var source: LinkSource
    var account: AccountID? = nil
}

/// Records every decision, and (apart: an app never hears of it) every link killed in the crash
/// window.
final class RecordingObserver: ResolverObserver, CrashWindowObserver {
    private let recorded = Mutex<[ResolverDecision]>([])
    private let killed = Mutex<[PendingLink]>([])

    func resolverDecided(_ decision: ResolverDecision) {
        recorded.withLock { $0.append(decision) }
    }

    func resolverKilledInCrashWindow(_ link: PendingLink) {
        killed.withLock { $0.append(link) }
    }

    var decisions: [ResolverDecision] { recorded.withLock { $0 } }

    /// Links killed between their consumed mark and the router call.
    var crashWindows: [PendingLink] { killed.withLock { $0 } }

    /// Decisions other than waiting notices.
    var terminal: [ResolverDecision] {
        decisions.filter {
            if case .waitingForGate = $0 { return false }
            return true
        }
    }
}

/// One simulated process: a store, a resolver and their shared life.
struct SimulatedApp {
    let process: SimulatedProcess
    let store: InMemoryHandoffStore
    let resolver: LinkResolver

    init(
        image: HandoffImage? = nil,
        router: any Router,
        observer: any ResolverObserver,
        clock: any ResolverClock = ManualClock(),
        configuration: LinkResolver.Configuration = LinkResolver.Configuration(
            policy: TestApp.policy,
            timeToLiveNanos: 1_000
        )
    ) {
        let process = SimulatedProcess()
        self.process = process
        self.store =
            image.map { InMemoryHandoffStore(relaunchingFrom: $0, process: process) }
            ?? InMemoryHandoffStore(capacity: 8, consumedCapacity: 64, process: process)
        self.resolver = LinkResolver(
            configuration: configuration,
            store: store,
            router: router,
            observer: observer,
            clock: clock,
            process: process
        )
    }

    /// Kills this process and starts the next one from what survived (launching it).
    func relaunch(
        router: any Router,
        observer: any ResolverObserver,
        clock: any ResolverClock = ManualClock()
    )
        -> SimulatedApp
    {
        resolver.simulateKill()
        let image = store.simulateKill()
        let next = SimulatedApp(image: image, router: router, observer: observer, clock: clock)
        _ = try? next.resolver.launch()
        return next
    }
}

/// A resolver for allocation tests (in-memory store, a router that keeps nothing, no observer, a
/// manual clock) and Play's deliveries of one referrer to it: each ``deliver()`` is a new
/// delivery, with a new id and install-begin timestamp.
struct ReferrerDeliveries {
    let resolver: LinkResolver
    let referrer: [UInt8]
    let parser = ReferrerParser()
    private(set) var id: UInt64 = 0

    init(_ referrer: String, configuration: LinkResolver.Configuration = TestApp.configuration) {
        self.referrer = Array(referrer.utf8)
        resolver = LinkResolver(
            configuration: configuration,
            store: InMemoryHandoffStore(capacity: 8, consumedCapacity: 4_096),
            router: CampaignRouter(keep: false),
            observer: IgnoringResolverObserver(),
            clock: ManualClock()
        )
        resolver.signal(.appReady)
    }

    mutating func deliver() {
        id += 1
        let id = id
        referrer.withUnsafeBytes { bytes in
            _ = resolver.captureReferrer(
                bytes,
                parser: parser,
                validator: TestApp.validator,
                capturedAtNanos: id,
                id: id,
                installBeginTimestamp: id
            )
        }
    }
}
