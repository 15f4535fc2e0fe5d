import DeepLinkCore
import DeepLinkCoreTestSupport
import Testing

/// The routed-link memory (a ring of the last `routedMemory` routes, looked up through bucket
/// counts that let most captures skip the scan) must answer exactly what a scan of the last
/// routes answers, for ids and install-begin timestamps that collide in their buckets, repeat,
/// and leave the ring.
@Suite struct ResolverStateMachineRoutedMemoryTests {
    typealias F = ResolverFixtures

    @Test func duplicatesOfRecentRoutesAreCaughtAndOlderOnesAreNot() {
        var generator = SeededGenerator(seed: 0xB0C4E7)
        let memory = 5
        var machine = ResolverStateMachine(
            policy: TestApp.policy,
            timeToLiveNanos: 1_000,
            pendingCapacity: 4,
            routedMemory: memory
        )
        _ = machine.drain(machine.signal(.appReady, now: 0), now: 0)
        // The model: identities of the last `memory` routes, oldest first.
        var recent: [CaptureIdentity] = []
        var duplicates = 0
        for step in 0..<5_000 {
            // Few distinct keys: ids and timestamps repeat and share buckets often.
            let id = generator.next() % 40 + 1
            let installBegin = generator.next() % 2 == 0 ? 0 : generator.next() % 23 + 1
            let link = F.link(
                "/product/\(step)",
                id: id,
                source: installBegin == 0 ? .appClip : .installReferrer,
                installBegin: installBegin
            )
            let identity = CaptureIdentity(link)
            let action = machine.capture(link, now: 0, consumedBefore: false)
            let routedBefore = recent.contains { identity.isSameCapture(as: $0) }
            if routedBefore {
                duplicates += 1
                guard case .ignoreDuplicate = action else {
                    Issue.record("step \(step): \(identity) repeats a recent route but got \(action)")
                    return
                }
            } else {
                guard action == .route(link) else {
                    Issue.record("step \(step): \(identity) got \(action), expected a route")
                    return
                }
                recent.append(identity)
                if recent.count > memory { recent.removeFirst() }
            }
            #expect(machine.nextAction(now: 0) == .none)
        }
        // Both answers occurred often enough to mean something.
        #expect(duplicates > 500 && duplicates < 4_500)
    }
}
