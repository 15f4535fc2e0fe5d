import DeepLinkCore
import Testing

@Suite struct ResolverStateMachineTests {
    typealias F = ResolverFixtures

    @Test func productWaitsForAppReadyThenRoutes() {
        var machine = F.machine()
        let product = F.link("/product/42", id: 1)
        let captured = machine.drain(machine.capture(product, now: 0, consumedBefore: false), now: 0)
        #expect(captured == [.waitForGate(product, missing: .appReady)])
        #expect(machine.state == .starting(satisfied: []))
        let ready = machine.drain(machine.signal(.appReady, now: 0), now: 0)
        #expect(ready == [.route(product)])
        #expect(machine.pendingCount == 0)
        #expect(machine.state == .ready(satisfied: .appReady))
    }

    @Test func ordersNeverRouteBeforeLoginAndLogoutClosesTheGateAgain() {
        var machine = F.machine()
        let order = F.link("/orders/7", id: 1)
        _ = machine.drain(machine.signal(.appReady, now: 0), now: 0)
        _ = machine.drain(machine.signal(.loggedIn, now: 0), now: 0)
        _ = machine.drain(machine.signal(.loggedOut, now: 0), now: 0)
        let captured = machine.drain(machine.capture(order, now: 0, consumedBefore: false), now: 0)
        #expect(captured == [.waitForGate(order, missing: .loggedIn)])
        let login = machine.drain(machine.signal(.loggedIn, now: 0), now: 0)
        #expect(login == [.route(order)])
    }

    @Test func loginBeforeAppReadyStillWaitsForReady() {
        var machine = F.machine()
        let order = F.link("/orders/7", id: 1)
        _ = machine.drain(machine.capture(order, now: 0, consumedBefore: false), now: 0)
        let login = machine.drain(machine.signal(.loggedIn, now: 0), now: 0)
        #expect(login == [.waitForGate(order, missing: .appReady)])
        #expect(machine.state == .starting(satisfied: .loggedIn))
        #expect(machine.drain(machine.signal(.appReady, now: 0), now: 0) == [.route(order)])
    }

    @Test func latestWinsAndOlderAreSupersededBeforeTheRoute() {
        var machine = F.machine()
        let older = F.link("/product/1", id: 1, at: 10)
        let newer = F.link("/product/2", id: 2, at: 20)
        _ = machine.drain(machine.capture(newer, now: 30, consumedBefore: false), now: 30)
        _ = machine.drain(machine.capture(older, now: 30, consumedBefore: false), now: 30)
        let ready = machine.drain(machine.signal(.appReady, now: 30), now: 30)
        #expect(ready == [.supersede(older, byID: 2), .route(newer)])
    }

    @Test func olderOpenLinkWaitsBehindNewerClosedOne() {
        var machine = F.machine()
        let product = F.link("/product/1", id: 1, at: 10)
        let order = F.link("/orders/2", id: 2, at: 20)
        _ = machine.drain(machine.capture(product, now: 30, consumedBefore: false), now: 30)
        _ = machine.drain(machine.capture(order, now: 30, consumedBefore: false), now: 30)
        #expect(machine.drain(machine.signal(.appReady, now: 30), now: 30) == [.waitForGate(order, missing: .loggedIn)])
        #expect(
            machine.drain(machine.signal(.loggedIn, now: 30), now: 30) == [.supersede(product, byID: 2), .route(order)]
        )
    }

    @Test func expiredLinksAreDroppedNeverRouted() {
        var machine = F.machine(ttl: 100)
        let atLimit = F.link("/product/1", id: 1, at: 0)
        _ = machine.drain(machine.capture(atLimit, now: 0, consumedBefore: false), now: 0)
        // Exactly the time-to-live old: still valid.
        #expect(machine.drain(machine.tick(now: 100), now: 100).isEmpty)
        #expect(machine.drain(machine.tick(now: 101), now: 101) == [.expire(atLimit)])
        #expect(machine.drain(machine.signal(.appReady, now: 101), now: 101).isEmpty)
        // A handoff timestamp from the future counts as age zero, not as a huge age.
        let future = F.link("/product/2", id: 2, at: 500)
        #expect(machine.drain(machine.capture(future, now: 101, consumedBefore: false), now: 101) == [.route(future)])
    }

    @Test func duplicatesAreIgnoredWithTheRightRecordDiscarded() {
        var machine = F.machine()
        let referrer = F.link("/product/1", id: 1, source: .installReferrer, installBegin: 77)
        _ = machine.drain(machine.capture(referrer, now: 0, consumedBefore: false), now: 0)
        // Same id while pending: the record is the original's, keep it.
        #expect(
            machine.capture(referrer, now: 0, consumedBefore: false) == .ignoreDuplicate(referrer, discardRecord: false)
        )
        // Re-delivery: new id, same install-begin timestamp: drop its own record.
        let redelivered = F.link("/product/1", id: 2, source: .installReferrer, installBegin: 77)
        #expect(
            machine.capture(redelivered, now: 0, consumedBefore: false)
                == .ignoreDuplicate(redelivered, discardRecord: true)
        )
        #expect(machine.drain(machine.signal(.appReady, now: 0), now: 0) == [.route(referrer)])
        // After routing, the in-memory memory catches it even if the store has not answered yet.
        let late = F.link("/product/1", id: 3, source: .installReferrer, installBegin: 77)
        #expect(machine.capture(late, now: 0, consumedBefore: false) == .ignoreDuplicate(late, discardRecord: true))
        // What the store knows as consumed (an earlier process) is a duplicate too.
        let clip = F.link("/product/9", id: 9)
        #expect(machine.capture(clip, now: 0, consumedBefore: true) == .ignoreDuplicate(clip, discardRecord: true))
        // Zero timestamps and other sources never match by timestamp.
        let clipWithZero = F.link("/product/1", id: 4, source: .appClip, installBegin: 77)
        #expect(
            machine.drain(machine.capture(clipWithZero, now: 0, consumedBefore: false), now: 0) == [
                .route(clipWithZero)
            ]
        )
    }

    @Test func fullPendingSetSupersedesTheOldest() {
        var machine = F.machine(pendingCapacity: 2)
        let first = F.link("/orders/1", id: 1, at: 1)
        let second = F.link("/orders/2", id: 2, at: 2)
        let third = F.link("/orders/3", id: 3, at: 3)
        let stale = F.link("/orders/0", id: 4, at: 0)
        _ = machine.drain(machine.capture(first, now: 5, consumedBefore: false), now: 5)
        _ = machine.drain(machine.capture(second, now: 5, consumedBefore: false), now: 5)
        #expect(machine.capture(third, now: 5, consumedBefore: false) == .supersede(first, byID: 3))
        #expect(machine.capture(stale, now: 5, consumedBefore: false) == .supersede(stale, byID: 3))
        #expect(machine.pendingCount == 2)
        #expect(Set(machine.pendingLinks.map(\.id)) == [2, 3])
    }

    /// Expiry is decided before anything else, also for the link a full set pushes out (seed
    /// 31337, journey 435557 with a 120 s time-to-live: two clip handoffs, the older one past it).
    @Test func fullPendingSetExpiresAnExpiredLinkItPushesOut() {
        var machine = F.machine(ttl: 100, pendingCapacity: 1)
        let older = F.link("/orders/1", id: 1, at: 10)
        let newer = F.link("/orders/2", id: 2, at: 150)
        _ = machine.drain(machine.capture(older, now: 10, consumedBefore: false), now: 10)
        #expect(machine.capture(newer, now: 200, consumedBefore: false) == .expire(older))
        #expect(machine.pendingLinks.map(\.id) == [2])
        // The incoming link is the older one, and expired: expired too, not superseded.
        let late = F.link("/orders/0", id: 3, at: 0)
        #expect(machine.capture(late, now: 200, consumedBefore: false) == .expire(late))
        #expect(machine.pendingLinks.map(\.id) == [2])
    }

    @Test func waitingIsReportedOnlyWhenSomethingChanged() {
        var machine = F.machine()
        let order = F.link("/orders/1", id: 1)
        #expect(machine.drain(machine.capture(order, now: 0, consumedBefore: false), now: 0).count == 1)
        #expect(machine.drain(machine.tick(now: 1), now: 1).isEmpty)
        #expect(machine.drain(machine.signal(.appReady, now: 1), now: 1) == [.waitForGate(order, missing: .loggedIn)])
        #expect(machine.drain(machine.signal(.loggedOut, now: 1), now: 1).isEmpty)
    }

    @Test func customEventsGateTheirRoutes() throws {
        let onboarded = try #require(AppEvent.Custom(id: 5))
        #expect(AppEvent.Custom(id: AppEvent.Custom.capacity) == nil)
        #expect(AppEvent.Custom(id: -1) == nil)
        let policy = try RoutePolicy(rules: [(prefix: "/welcome/", requires: .custom(onboarded))])
        var machine = ResolverStateMachine(policy: policy, timeToLiveNanos: 1_000)
        let welcome = F.link("/welcome/tour", id: 1)
        _ = machine.drain(machine.signal(.appReady, now: 0), now: 0)
        #expect(
            machine.drain(machine.capture(welcome, now: 0, consumedBefore: false), now: 0) == [
                .waitForGate(welcome, missing: .custom(onboarded))
            ]
        )
        #expect(machine.drain(machine.signal(.custom(onboarded), now: 0), now: 0) == [.route(welcome)])
    }

    @Test func killedMachineIgnoresEverything() {
        var machine = F.machine()
        let product = F.link("/product/1", id: 1)
        _ = machine.drain(machine.capture(product, now: 0, consumedBefore: false), now: 0)
        machine.kill()
        #expect(machine.isKilled)
        #expect(machine.pendingCount == 0)
        #expect(machine.drain(machine.signal(.appReady, now: 0), now: 0).isEmpty)
        #expect(machine.capture(product, now: 0, consumedBefore: false) == .none)
    }

    @Test func routePolicyMatchesLongestPrefixAndRejectsBadPrefixes() throws {
        let policy = try RoutePolicy(
            rules: [(prefix: "/a/", requires: .loggedIn), (prefix: "/a/open/", requires: [])],
            defaultRequirements: .loggedIn
        )
        #expect(policy.requirements(for: DeepLink(validated: "/a/open/1")!) == .appReady)
        #expect(policy.requirements(for: DeepLink(validated: "/a/secret")!) == [.appReady, .loggedIn])
        #expect(policy.requirements(for: DeepLink(validated: "/b?x=/a/")!) == [.appReady, .loggedIn])
        #expect(throws: RoutePolicy.PrefixError.invalidPrefix("a/")) {
            try RoutePolicy(rules: [(prefix: "a/", requires: [])])
        }
        #expect(throws: RoutePolicy.PrefixError.invalidPrefix("/a?b")) {
            try RoutePolicy(rules: [(prefix: "/a?b", requires: [])])
        }
        #expect(throws: RoutePolicy.PrefixError.duplicatePrefix("/a/")) {
            try RoutePolicy(rules: [(prefix: "/a/", requires: []), (prefix: "/a/", requires: .loggedIn)])
        }
        #expect(TestApp.policy.requirements(for: DeepLink(validated: "/orders/1")!) == [.appReady, .loggedIn])
        // Segment boundaries, by the validator's rule: `/account` gates its screen and below only.
        let account = try RoutePolicy(rules: [(prefix: "/account", requires: .loggedIn)])
        for gated in ["/account", "/account/", "/account/7", "/account?tab=1"] {
            #expect(account.requirements(for: DeepLink(validated: gated)!) == [.appReady, .loggedIn], "\(gated)")
        }
        for open in ["/accountant", "/accounts/7", "/acc", "/"] {
            #expect(account.requirements(for: DeepLink(validated: open)!) == .appReady, "\(open)")
        }
        // A trailing `/` once left `/orders` itself open; the rule `/orders/` now gates it too.
        #expect(TestApp.policy.requirements(for: DeepLink(validated: "/orders")!) == [.appReady, .loggedIn])
        #expect(TestApp.policy.requirements(for: DeepLink(validated: "/ordersfoo")!) == .appReady)
        #expect(TestApp.policy.requirements(for: DeepLink(validated: "/product/1")!) == .appReady)
    }
}
