// The machine's bookkeeping: its slots, the ring of routed links and its invariants.
extension ResolverStateMachine {
    /// Whether the session's account is the one the link in `slot` is bound to.
    func isLoggedInAccount(ofLinkAt slot: Int) -> Bool {
        guard let loggedInAccount else { return false }
        return links.withUnsafeBufferPointer { links in links[slot].account == loggedInAccount }
    }

    /// Frees occupied slot `index` (its record's bytes stay until the slot is reused).
    mutating func vacate(_ index: Int) {
        slots[index].occupied = false
        pendingCount -= 1
    }

    /// The id of the routed link that `identity` is the same capture as, if any. Inlined: as a
    /// call, `stageDecision` copies the machine's leading fields for it on every capture.
    @inline(__always)
    func routedID(matching identity: CaptureIdentity) -> UInt64? {
        guard mayMatchRouted(identity) else { return nil }
        return routedIdentities.withUnsafeBufferPointer { identities in
            // The same loop twice: in the first, the compiler knows that only the id can match.
            if identity.installBeginTimestamp == 0 {
                for index in identities.indices where identity.isSameCapture(as: identities[index]) {
                    // A match with a stale identity (its entry was cleared) is no match.
                    if routed[index] != nil { return identities[index].id }
                }
            } else {
                for index in identities.indices where identity.isSameCapture(as: identities[index]) {
                    if routed[index] != nil { return identities[index].id }
                }
            }
            return nil
        }
    }

    /// Whether some `routedIdentities` entry may be the same capture as `identity` (false: none is).
    @inline(__always)
    func mayMatchRouted(_ identity: CaptureIdentity) -> Bool {
        let buckets = Self._routedBucketIndices(of: identity)
        return routedBucketCounts.withUnsafeBufferPointer { counts in
            if counts[buckets.id] != 0 { return true }
            guard let timestamp = buckets.timestamp else { return false }
            return counts[timestamp] != 0
        }
    }

    /// Where `identity` is counted in `routedBucketCounts`: its id's bucket and, for a nonzero
    /// install-begin timestamp, that timestamp's bucket.
    @inline(__always)
    static func _routedBucketIndices(of identity: CaptureIdentity) -> (id: Int, timestamp: Int?) {
        let timestamp = identity.installBeginTimestamp
        return (_routedBucket(of: identity.id), timestamp == 0 ? nil : _routedBuckets + _routedBucket(of: timestamp))
    }

    /// Buckets per key in `routedBucketCounts`.
    static let _routedBuckets = 64

    /// The bucket of `key` (Fibonacci hashing: consecutive ids spread out).
    @inline(__always)
    static func _routedBucket(of key: UInt64) -> Int { Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 58) }

    mutating func remember(_ link: Slot) {
        routed[routedNext] = link
        let old = routedIdentities[routedNext]
        let new = link.identity
        routedIdentities[routedNext] = new
        let oldBuckets = Self._routedBucketIndices(of: old)
        let newBuckets = Self._routedBucketIndices(of: new)
        routedBucketCounts.withUnsafeMutableBufferPointer { counts in
            counts[oldBuckets.id] -= 1
            if let timestamp = oldBuckets.timestamp { counts[timestamp] -= 1 }
            counts[newBuckets.id] += 1
            if let timestamp = newBuckets.timestamp { counts[timestamp] += 1 }
        }
        if routedNext >= routedUsed { routedUsed = routedNext + 1 }
        routedNext = routedNext + 1 == routed.count ? 0 : routedNext + 1  // not `%`: a division per route
    }

    /// Whether `slot`'s age at `now` exceeds the time-to-live (the rule of ``nextAction(now:)``).
    func isExpired(_ slot: Slot, now: UInt64) -> Bool {
        let age = now > slot.capturedAtNanos ? now - slot.capturedAtNanos : 0
        return age > timeToLiveNanos
    }

    static func isNewer(_ slot: Slot, than other: Slot) -> Bool {
        if slot.capturedAtNanos != other.capturedAtNanos {
            return slot.capturedAtNanos > other.capturedAtNanos
        }
        return slot.arrival > other.arrival
    }

    func indexOfNewest() -> Int? {
        var best: Int?
        for index in slots.indices where slots[index].occupied {
            if let current = best, !Self.isNewer(slots[index], than: slots[current]) { continue }
            best = index
        }
        return best
    }

    func indexOfOldest() -> Int? {
        var best: Int?
        for index in slots.indices where slots[index].occupied {
            if let current = best, !Self.isNewer(slots[current], than: slots[index]) { continue }
            best = index
        }
        return best
    }

    // Index loops rather than `firstIndex(where:)`, which allocates per call when unspecialized
    // (debug builds); the machine runs on the routing path.
    func indexOfFreeSlot() -> Int? {
        for index in slots.indices where !slots[index].occupied { return index }
        return nil
    }

    func indexOfAnyPending(except excluded: Int) -> Int? {
        for index in slots.indices where index != excluded && slots[index].occupied { return index }
        return nil
    }

    @inline(__always)
    func _checkInvariants() {
        #if DEBUG
        var occupied = 0
        for index in slots.indices where slots[index].occupied {
            occupied += 1
            precondition(links[index].id == slots[index].identity.id, "slot and record out of sync")
        }
        precondition(occupied == pendingCount, "pendingCount out of sync")
        for index in routedUsed..<routed.count {
            precondition(routed[index] == nil, "a routed entry past routedUsed (reset would keep it)")
        }
        switch state {
        case .starting(let satisfied):
            precondition(!satisfied.contains(.appReady), "starting with appReady")
        case .ready(let satisfied):
            precondition(satisfied.contains(.appReady), "ready without appReady")
        }
        if isKilled { precondition(pendingCount == 0, "a killed machine holds links") }
        // Index loops, so that nothing allocates in debug builds either (tests pin allocation
        // counts): every entry is counted in its buckets, and the buckets count every entry once.
        var timestamped: UInt32 = 0
        for index in routedIdentities.indices {
            let buckets = Self._routedBucketIndices(of: routedIdentities[index])
            precondition(routedBucketCounts[buckets.id] > 0, "routed id bucket out of sync")
            if let timestamp = buckets.timestamp {
                timestamped += 1
                precondition(routedBucketCounts[timestamp] > 0, "routed timestamp bucket out of sync")
            }
        }
        var idTotal: UInt32 = 0
        var timestampTotal: UInt32 = 0
        for bucket in 0..<Self._routedBuckets {
            idTotal += routedBucketCounts[bucket]
            timestampTotal += routedBucketCounts[Self._routedBuckets + bucket]
        }
        precondition(
            idTotal == UInt32(routedIdentities.count) && timestampTotal == timestamped,
            "routed bucket counts out of sync"
        )
        for index in slots.indices where slots[index].occupied {
            let slot = slots[index]
            for otherIndex in (index + 1)..<slots.count where slots[otherIndex].occupied {
                let duplicate = slot.identity.isSameCapture(as: slots[otherIndex].identity)
                precondition(!duplicate, "duplicate pending links")
            }
        }
        #endif
    }
}
