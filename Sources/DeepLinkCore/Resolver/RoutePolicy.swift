/// Which gate events each destination needs before it may be routed: path prefix → events. The
/// app states its own rules; there is no built-in policy.
///
/// The longest matching prefix wins; a path that matches no rule needs ``defaultRequirements``.
/// Every route also needs ``GateEvents/appReady``, whether a rule names it or not. Prefixes match
/// at path-segment boundaries, by the same rule as ``LinkValidator/Configuration/routes``:
/// `/account` gates `/account` and `/account/settings`, never `/accountant`; `/orders/` gates
/// `/orders/42` but not `/orders` itself (write `/orders` to gate both).
///
/// ```swift
/// let policy = try RoutePolicy(rules: [
///     (prefix: "/orders", requires: .loggedIn),
///     (prefix: "/product", requires: []),
/// ])
/// ```
///
/// An app that would rather fail closed sets `defaultRequirements` (for example `.loggedIn`) and
/// lists the open destinations with empty requirements.
///
/// Prefixes are stored as inline ``DeepLink`` bytes, so matching neither copies nor allocates.
///
/// Thread safety: an immutable value type; `Sendable`.
public struct RoutePolicy: Sendable {
    /// One prefix and what it requires.
    public struct Rule: Sendable, Hashable {
        /// The path prefix, e.g. `/orders`.
        public let prefix: DeepLink
        /// The events a link under `prefix` needs (besides `appReady`).
        public let requires: GateEvents
    }

    /// The rules, longest prefix first (so the first match is the longest).
    public let rules: [Rule]
    /// What a path matching no rule needs (besides `appReady`).
    public let defaultRequirements: GateEvents
    /// Every rule's prefix bytes, back to back in rule order, and where each one ends: matching
    /// reads these instead of the rules' 512-byte inline links, which would be copied per check.
    private let prefixBytes: [UInt8]
    private let prefixEnds: [Int]
    private let prefixRequirements: [GateEvents]

    /// Creates a policy.
    ///
    /// - Throws: ``RoutePolicyError/invalidPrefix(_:)`` for a prefix that is not a path without a
    ///   query (`/...`, no `?`), ``RoutePolicyError/duplicatePrefix(_:)`` for a prefix named twice.
    public init(
        rules: [(prefix: String, requires: GateEvents)],
        defaultRequirements: GateEvents = []
    ) throws(RoutePolicyError) {
        var built: [Rule] = []
        built.reserveCapacity(rules.count)
        for rule in rules {
            guard !rule.prefix.utf8.contains(UInt8(ascii: "?")), let prefix = DeepLink(validated: rule.prefix) else {
                throw .invalidPrefix(rule.prefix)
            }
            guard !built.contains(where: { $0.prefix == prefix }) else { throw .duplicatePrefix(rule.prefix) }
            built.append(Rule(prefix: prefix, requires: rule.requires))
        }
        built.sort { $0.prefix.utf8Count > $1.prefix.utf8Count }
        self.rules = built
        self.defaultRequirements = defaultRequirements
        var bytes: [UInt8] = []
        var ends: [Int] = []
        for rule in built {
            rule.prefix.withUTF8Bytes { bytes.append(contentsOf: $0) }
            ends.append(bytes.count)
        }
        self.prefixBytes = bytes
        self.prefixEnds = ends
        self.prefixRequirements = built.map(\.requires)
    }

    /// Everything `link` needs before it may be routed, `appReady` included.
    ///
    /// - Complexity: O(r · p) for r rules of prefix length p; no allocation.
    public func requirements(for link: DeepLink) -> GateEvents {
        // The link's bytes are fetched once (each fetch copies the inline link); index loops, since
        // `for rule in rules` allocates an iterator per call in debug builds.
        let pathCount = link.pathUTF8Count
        let matched = link.withUTF8Bytes { link in
            let path = UnsafeRawBufferPointer(rebasing: link[0..<pathCount])
            return prefixBytes.withUnsafeBytes { prefixes -> Int? in
                var start = 0
                for rule in prefixEnds.indices {
                    let end = prefixEnds[rule]
                    defer { start = end }
                    let prefix = UnsafeRawBufferPointer(rebasing: prefixes[start..<end])
                    if PathPrefix.path(path, impliedLeadingSlash: false, isUnder: prefix) { return rule }
                }
                return nil
            }
        }
        guard let matched else { return defaultRequirements.union(.appReady) }
        return prefixRequirements[matched].union(.appReady)
    }
}

/// Why a ``RoutePolicy`` could not be built.
public enum RoutePolicyError: Error, Sendable, Hashable {
    /// The prefix is not a path (must start with `/`, fit a ``DeepLink``, and hold no `?`).
    case invalidPrefix(String)
    /// The same prefix appears in two rules.
    case duplicatePrefix(String)
}
