/// The resolver decision paths a journey exercised, as reported from outside the core: through
/// the resolver's observer decisions and the strategy's own calls (a launch that loaded links, a
/// logout while a link waited, a race). Counted per journey in `coverage.csv`.
///
/// Thread safety: a value type; `Sendable`.
package struct DecisionPaths: OptionSet, Sendable, Hashable {
    package let rawValue: UInt16
    package init(rawValue: UInt16) { self.rawValue = rawValue }

    /// A capture the resolver already held or routed under the same id (a clip handoff read twice).
    package static let duplicateByID = DecisionPaths(rawValue: 1 << 0)
    /// A referrer delivered again under a new id, recognised by Play's install-begin timestamp.
    package static let duplicateByInstallTimestamp = DecisionPaths(rawValue: 1 << 1)
    /// A capture of a link this journey already routed.
    package static let duplicateOfRouted = DecisionPaths(rawValue: 1 << 2)
    /// An older pending link dropped for a newer one when the gate opened.
    package static let supersededOlder = DecisionPaths(rawValue: 1 << 3)
    /// A capture into a full pending set pushed the oldest link out.
    package static let overflowSupersede = DecisionPaths(rawValue: 1 << 10)
    /// A pending link expired while it waited for its gate.
    package static let expiredWhileWaiting = DecisionPaths(rawValue: 1 << 4)
    /// A logout while a link waited: the gate closed again.
    package static let logoutClosedGate = DecisionPaths(rawValue: 1 << 5)
    /// A launch loaded one or more links from the store and admitted them as one batch.
    package static let launchBatch = DecisionPaths(rawValue: 1 << 6)
    /// The process died between the consumed mark and the router call.
    package static let crashWindow = DecisionPaths(rawValue: 1 << 7)
    /// A capture raced a gate signal from another thread, through the lock-free queue.
    package static let racedCapture = DecisionPaths(rawValue: 1 << 8)
    /// The router declined a link (not ready): it went back to pending for the next signal.
    package static let routeDeclined = DecisionPaths(rawValue: 1 << 11)
    /// The capture queue and the machine were full: the link waits in the store.
    package static let queueFull = DecisionPaths(rawValue: 1 << 9)
    /// A link under a signing prefix was refused for its signature (missing, bad, unknown key,
    /// expired).
    package static let signatureRejected = DecisionPaths(rawValue: 1 << 12)
    /// A signed link was refused because its nonce was consumed before (a replay).
    package static let nonceReplayed = DecisionPaths(rawValue: 1 << 13)
    /// A link bound to one account waited while another account was logged in.
    package static let heldForAccount = DecisionPaths(rawValue: 1 << 14)

    /// Every path with its `coverage.csv` name, in report order.
    package static let named: [(path: DecisionPaths, name: String)] = [
        (.duplicateByID, "duplicate_by_id"),
        (.duplicateByInstallTimestamp, "duplicate_by_install_timestamp"),
        (.duplicateOfRouted, "duplicate_of_routed"),
        (.supersededOlder, "supersede_older"),
        (.overflowSupersede, "overflow_supersede"),
        (.expiredWhileWaiting, "expire_while_waiting"),
        (.logoutClosedGate, "logout_closed_gate"),
        (.launchBatch, "launch_batch"),
        (.crashWindow, "crash_window"),
        (.racedCapture, "capture_raced_through_queue"),
        (.queueFull, "queue_full"),
        (.routeDeclined, "route_declined"),
        (.heldForAccount, "held_for_account"),
        (.signatureRejected, "signature_rejected"),
        (.nonceReplayed, "nonce_replayed"),
    ]

    /// Per bit of the raw value, the index in ``named`` of the path that is that bit (-1: none), so
    /// that a journey's paths are counted by walking its set bits rather than every named path.
    package static let namedIndexOfBit: InlineArray<16, Int8> = {
        var indices = InlineArray<16, Int8>(repeating: -1)
        for (index, entry) in named.enumerated() {
            indices[entry.path.rawValue.trailingZeroBitCount] = Int8(index)
        }
        return indices
    }()
}
