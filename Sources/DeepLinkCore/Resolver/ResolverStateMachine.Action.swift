extension ResolverStateMachine {
    /// What the owner must do next. Each case carries everything needed to do it.
    package enum Action: Sendable, Equatable {
        /// Nothing (more) to do for this step.
        case none
        /// Mark the link consumed in the store, then call the router with it.
        case route(PendingLink)
        /// Drop the link from the store: a newer link (`byID`) replaces it.
        case supersede(PendingLink, byID: UInt64)
        /// Drop the link from the store: it is older than the time-to-live.
        case expire(PendingLink)
        /// Report the link as a duplicate; drop its store record only when `discardRecord` (it is
        /// false when the record is the still-pending original's, which has the same id).
        case ignoreDuplicate(PendingLink, discardRecord: Bool)
        /// Report that the newest pending link waits for the `missing` events.
        case waitForGate(PendingLink, missing: GateEvents)
        /// Report that the newest pending link's gate is open but it is bound to another account
        /// than the one logged in: it waits for its own account's login.
        case holdForAccount(PendingLink)
    }
}
