import DeepLinkCore
import DeepLinkHarness

/// Builders shared by the resolver and handoff-store suites.
enum ResolverFixtures {
    static func link(
        _ path: String,
        id: UInt64,
        at capturedAtNanos: UInt64 = 0,
        source: LinkSource = .appClip,
        installBegin: UInt64 = 0
    ) -> PendingLink {
        PendingLink(
            link: DeepLink(validated: path)!,
            source: source,
            capturedAtNanos: capturedAtNanos,
            id: id,
            installBeginTimestamp: installBegin
        )
    }

    static func machine(ttl: UInt64 = 1_000, pendingCapacity: Int = 4) -> ResolverStateMachine {
        ResolverStateMachine(policy: .standard, timeToLiveNanos: ttl, pendingCapacity: pendingCapacity)
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

enum ResolverAllocations {
    /// Bytes the calling thread allocates while `body` runs, net of the counter's own cost: in debug
    /// builds reading jemalloc's counter allocates a small constant itself (measured here by two
    /// back-to-back reads), which would otherwise show up as a fake allocation.
    static func netBytes<E: Error>(_ body: () throws(E) -> Void) throws(E) -> UInt64 {
        let probeStart = AllocationCounter.threadAllocatedBytes()
        let probeEnd = AllocationCounter.threadAllocatedBytes()
        let readCost = probeEnd &- probeStart
        let before = AllocationCounter.threadAllocatedBytes()
        try body()
        let raw = AllocationCounter.threadAllocatedBytes() &- before
        return raw > readCost ? raw - readCost : 0
    }
}
