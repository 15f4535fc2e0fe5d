extension ResolverStateMachine {
    /// What the decisions read of a pending link, kept apart from the record so that scanning the
    /// pending set copies a few words per slot, not whole links.
    @usableFromInline
    internal struct Slot: Sendable {
        var occupied = false
        var requires: GateEvents = []
        var arrival: UInt64 = 0
        var capturedAtNanos: UInt64 = 0
        var identity = CaptureIdentity(id: 0, installBeginTimestamp: 0)
        /// The router declined this link: it is not offered again before the next signal.
        var deferred = false
        /// The link names an account (``PendingLink/account``), compared at the gate.
        var boundToAccount = false

        init() {}

        init(
            capturedAtNanos: UInt64,
            identity: CaptureIdentity,
            requires: GateEvents,
            arrival: UInt64,
            boundToAccount: Bool
        ) {
            self.occupied = true
            self.requires = requires
            self.arrival = arrival
            self.capturedAtNanos = capturedAtNanos
            self.identity = identity
            self.boundToAccount = boundToAccount
        }
    }
}
