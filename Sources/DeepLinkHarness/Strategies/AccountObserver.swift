import DeepLinkCore
import Synchronization

/// The resolver's own account of one journey, from its observer's decisions and the simulation's
/// crash-window reports: which reasons it gave for links it did not route (expired, superseded,
/// crash window) and which decision paths it took
/// (for `coverage.csv`). Counted from outside the core: the resolver only builds the decisions this
/// observer asks for, and never the frequent `waitingForGate`.
///
/// Thread safety: the decisions may come from the worker or its race partner (a full queue is
/// reported by the capturing thread, the rest by the drainer), so the account is one atomic word
/// that decisions OR bits into: no lock round trip per decision. The worker sets it in ``reset``
/// and reads it in ``copy(into:)`` while no partner runs.
final class AccountObserver: ResolverObserver, CrashWindowObserver {
    /// Bits 0-7: the reported reasons; 8-23: the decision paths; then the journey's three
    /// settings.
    let word = Atomic<UInt32>(0)
    static let pathsShift: UInt32 = 8
    static let expiryAsSupersededBit: UInt32 = 1 << 25
    static let placeholderMisreadBit: UInt32 = 1 << 26
    /// The journey's resolver holds one pending link: every supersede is an overflow.
    static let pendingCapacityOneBit: UInt32 = 1 << 27

    /// The journey's router: whether it handled a route yet is whether a link was routed (the
    /// resolver reports `routed` right after the router handles it, on the same thread), so the
    /// observer need not ask for `routed` decisions, each a copy of the record.
    let router: RecordingRouter

    init(router: RecordingRouter) { self.router = router }

    static func reasons(_ reasons: StrategyObservation.Reasons) -> UInt32 { UInt32(reasons.rawValue) }
    static func paths(_ paths: DecisionPaths) -> UInt32 { UInt32(paths.rawValue) << pathsShift }

    func reset(expiryAsSuperseded: Bool, placeholderMisread: Bool, pendingCapacityOne: Bool) {
        var settings: UInt32 = 0
        if expiryAsSuperseded { settings |= Self.expiryAsSupersededBit }
        if placeholderMisread { settings |= Self.placeholderMisreadBit }
        if pendingCapacityOne { settings |= Self.pendingCapacityOneBit }
        word.store(settings, ordering: .relaxed)
    }

    func resolverDecided(_ decision: ResolverDecision) {
        // Relaxed: the settings were stored before any thread of this journey started.
        let current = word.load(ordering: .relaxed)
        // One switch over the decision, not its `kind` and then a payload: each copies the whole
        // decision (its record included) to find its case.
        let add: UInt32
        switch decision {
        case .superseded:
            // With room for one link, a second one can only push the first out; with room for
            // two (and at most two links a journey), a supersede happens when the gate opens.
            add =
                Self.reasons(.superseded)
                | Self.paths(current & Self.pendingCapacityOneBit != 0 ? .overflowSupersede : .supersededOlder)
        case .expired:
            add =
                Self.reasons(current & Self.expiryAsSupersededBit != 0 ? .superseded : .expired)
                | Self.paths(.expiredWhileWaiting)
        case .duplicate(let link):
            // Duplicates are decided by the drainer, which made any earlier router call itself.
            var paths: DecisionPaths = router.count > 0 ? .duplicateOfRouted : []
            if link.source == .installReferrer, link.installBeginTimestamp != 0 {
                // Every referrer delivery has a new id: only the timestamp can match it.
                paths.insert(.duplicateByInstallTimestamp)
            } else {
                paths.insert(.duplicateByID)
            }
            add = Self.paths(paths)
        case .queueFull:
            add = Self.paths(.queueFull)
        case .routeDeclined:
            add = Self.paths(.routeDeclined)
        case .heldForAccount:
            add = Self.paths(.heldForAccount)
        case .linklessReferrer(let linkless, _):
            let misread = current & Self.placeholderMisreadBit != 0
            switch linkless {
            case .organic: add = Self.reasons(misread ? .notSet : .organic)
            case .notSet: add = Self.reasons(misread ? .organic : .notSet)
            case .noPayload: return
            }
        case .routed, .rejected, .referrerRefused, .waitingForGate, .storeFailed, .unreadableRecord:
            // Routes (the router saw them), rejections, refused referrers, waits, store failures
            // and unreadable records.
            return
        }
        word.bitwiseOr(add, ordering: .relaxed)
    }

    /// Every kind but the frequent `waitingForGate`, the harness's own `rejected` and `routed`
    /// (the router saw those).
    var interests: ResolverDecision.Kinds {
        [.superseded, .expired, .duplicate, .queueFull, .routeDeclined, .linklessReferrer, .heldForAccount]
    }

    /// The simulation's own report (not a decision an app sees): killed after the consumed mark.
    func resolverKilledInCrashWindow(_ link: PendingLink) {
        word.bitwiseOr(Self.reasons(.crashWindow) | Self.paths(.crashWindow), ordering: .relaxed)
    }

    func copy(into observation: inout StrategyObservation) {
        let recorded = word.load(ordering: .relaxed)
        observation.reported.formUnion(StrategyObservation.Reasons(rawValue: UInt8(truncatingIfNeeded: recorded)))
        observation.paths.formUnion(DecisionPaths(rawValue: UInt16(truncatingIfNeeded: recorded >> Self.pathsShift)))
    }
}
