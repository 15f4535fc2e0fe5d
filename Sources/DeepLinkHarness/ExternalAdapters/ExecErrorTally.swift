/// What went wrong with an adapter's children, by kind, and the first few cases in words.
///
/// Thread safety: a value type; kept behind ``ExecAdapter/errors``.
package struct ExecErrorTally: Sendable {
    /// Kinds of protocol error.
    package enum Kind: String, Sendable, CaseIterable {
        /// The child could not be started or its handshake was missing or wrong.
        case handshake
        /// The child exited or closed its stdout.
        case crashed
        /// No `done` within the timeout.
        case hung
        /// A line that is not valid protocol JSON.
        case invalidJSON
        /// Valid JSON that breaks a protocol rule.
        case protocolBreach
        /// A worker stopped starting children after too many failures in a row.
        case gaveUp
    }

    /// Journeys failed per kind, in ``Kind/allCases`` order.
    package var counts = [UInt64](repeating: 0, count: Kind.allCases.count)
    /// The first few failures: kind, journey and what was found.
    package var examples: [(kind: Kind, journey: UInt64, message: String)] = []

    package init() {}

    package var total: UInt64 { counts.reduce(0, &+) }

    package func count(_ kind: Kind) -> UInt64 { counts[Kind.allCases.firstIndex(of: kind)!] }

    mutating func record(_ kind: Kind, journey: UInt64, message: String) {
        counts[Kind.allCases.firstIndex(of: kind)!] &+= 1
        if examples.count < 5 { examples.append((kind, journey, message)) }
    }
}
