extension ResolverStateMachine {
    /// An ``Action`` that names its link by slot (see ``nextDecision(now:_:)``): a few words instead
    /// of a whole record, so deciding copies no record.
    enum Decision: Sendable, Equatable {
        case none
        case route(slot: Int)
        case supersede(slot: Int, byID: UInt64)
        case expire(slot: Int)
        case waitForGate(slot: Int, missing: GateEvents)
        case holdForAccount(slot: Int)
        /// Only from staging: the incoming link is a duplicate.
        case ignoreDuplicate(discardRecord: Bool)
        /// Only from staging: the incoming link is older than every link of the full pending set.
        case supersedeIncoming(byID: UInt64)

        /// Whether the link leaves the pending set with it (every case but a waiting notice).
        var isTerminal: Bool {
            switch self {
            case .route, .supersede, .expire, .ignoreDuplicate, .supersedeIncoming: true
            case .none, .waitForGate, .holdForAccount: false
            }
        }
    }
}
