import DeepLinkCore
import DeepLinkCoreTestSupport
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `capture` and `signal(.loggedIn)` on two threads at once, many times: the link must be routed
/// exactly once every time, never before the login.
@Suite struct ResolverRaceTests {
    /// State both threads share. Resolvers are replaced every `rebuildEvery` rounds (between rounds,
    /// when no thread uses them) so that the store's consumed marks stay few.
    /// `resolver` is written only by the capturer, between rounds, before it publishes the next
    /// round with a releasing store; the signaller reads it only after acquiring that round. The
    /// atomics order every access, so the class is `@unchecked Sendable` (a `Synchronization.Mutex`
    /// here would be invisible to ThreadSanitizer on Linux).
    final class Shared: @unchecked Sendable {
        let round = Atomic<Int>(0)
        let signalled = Atomic<Int>(0)
        let loginStarted = Atomic<Int>(0)
        let routes = Atomic<Int>(0)
        let earlyRoutes = Atomic<Int>(0)
        let lastRoutedRound = Atomic<Int>(0)
        let failed = Atomic<Bool>(false)
        let finished = Atomic<Int>(0)
        var resolver: LinkResolver?
        let deadline: UInt64

        init(seconds: UInt64) {
            deadline = DispatchTime.now().uptimeNanoseconds + seconds * 1_000_000_000
        }

        var pastDeadline: Bool { DispatchTime.now().uptimeNanoseconds > deadline }

        /// Spins (yielding) until `condition` holds; false on deadline or another thread's failure.
        func await(_ condition: () -> Bool) -> Bool {
            var spins = 0
            while !condition() {
                if failed.load(ordering: .relaxed) { return false }
                spins += 1
                if spins & 1_023 == 0, pastDeadline {
                    failed.store(true, ordering: .relaxed)
                    return false
                }
                // A short busy spin first: the other thread usually answers within microseconds.
                if spins > 64 { sched_yield() }
            }
            return true
        }
    }

    struct CountingRouter: Router {
        let shared: Shared
        func route(_ link: PendingLink) -> RouteResult {
            defer { shared.routes.add(1, ordering: .relaxed) }
            let round = shared.round.load(ordering: .acquiring)
            if shared.loginStarted.load(ordering: .acquiring) < round {
                shared.earlyRoutes.add(1, ordering: .relaxed)
            }
            shared.lastRoutedRound.store(round, ordering: .releasing)
            return .handled
        }
    }

    static func makeResolver(_ shared: Shared) -> LinkResolver {
        let resolver = LinkResolver(
            configuration: LinkResolver.Configuration(policy: TestApp.policy, timeToLiveNanos: .max),
            store: InMemoryHandoffStore(capacity: 8, consumedCapacity: 128),
            router: CountingRouter(shared: shared),
            clock: ManualClock()
        )
        resolver.signal(.appReady)
        return resolver
    }

    @Test func captureAndLoginRaceRoutesExactlyOnceEveryTime() throws {
        let rounds = Sanitizer.isActive ? 50_000 : 1_000_000
        let rebuildEvery = 64
        let shared = Shared(seconds: Sanitizer.isActive ? 600 : 300)
        shared.resolver = Self.makeResolver(shared)
        let capturer = Thread {
            var link = ResolverFixtures.link("/orders/race", id: 0)
            for round in 1...rounds {
                if round % rebuildEvery == 0 {
                    shared.resolver = Self.makeResolver(shared)
                }
                let resolver = shared.resolver!
                link.id = UInt64(round)
                // Start barrier: the signaller waits for this store.
                shared.round.store(round, ordering: .releasing)
                resolver.capture(link)
                guard shared.await({ shared.signalled.load(ordering: .acquiring) == round }) else { break }
                // Both calls returned, so the drain is over: exactly one route for this round.
                if shared.routes.load(ordering: .acquiring) != round
                    || shared.lastRoutedRound.load(ordering: .acquiring) != round
                {
                    shared.failed.store(true, ordering: .relaxed)
                    break
                }
                resolver.signal(.loggedOut)
            }
            shared.finished.add(1, ordering: .releasing)
        }
        let signaller = Thread {
            for round in 1...rounds {
                guard shared.await({ shared.round.load(ordering: .acquiring) == round }) else { break }
                let resolver = shared.resolver!
                shared.loginStarted.store(round, ordering: .releasing)
                resolver.signal(.loggedIn)
                shared.signalled.store(round, ordering: .releasing)
            }
            shared.finished.add(1, ordering: .releasing)
        }
        capturer.stackSize = 1 << 20
        signaller.stackSize = 1 << 20
        capturer.start()
        signaller.start()
        _ = shared.await({ shared.finished.load(ordering: .acquiring) == 2 })
        // If the wait above gave up, give the threads a moment to notice and leave.
        while shared.finished.load(ordering: .acquiring) < 2 { sched_yield() }

        let failed = shared.failed.load(ordering: .acquiring)
        let routes = shared.routes.load(ordering: .acquiring)
        let earlyRoutes = shared.earlyRoutes.load(ordering: .acquiring)
        #expect(!failed)
        #expect(routes == rounds)
        #expect(earlyRoutes == 0)
    }
}
