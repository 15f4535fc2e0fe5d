/// Which gate events each destination needs before it may be routed: path prefix → events. The
/// app states its own rules; there is no built-in policy.
///
/// The longest matching prefix wins; a path that matches no rule needs ``defaultRequirements``.
/// Every route also needs ``GateEvents/appReady``, whether a rule names it or not. Prefixes match
/// the link's canonical form at path-segment boundaries, by the same rule as
/// ``LinkValidator/Configuration/routes``: `/orders` gates `/orders`, `/orders/42`, `/orders?id=42`
/// and `/Orders/42`, never `/ordersfoo`. A trailing `/` names the same rule (`/orders/` is
/// `/orders`, so it gates `/orders` too), and prefixes are stored canonical: `/%6Frders/` becomes
/// `/orders`. (The validator has already made every link canonical, so `/%6Frders/42` arrives as
/// `/orders/42`, and `/orders%2F42` never arrives: it is ``LinkRejection/encodedDelimiter``.)
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
        /// The path prefix in canonical form without a trailing `/` (except `/` itself), e.g.
        /// `/orders`.
        public let prefix: DeepLink
        /// The events a link under `prefix` needs (besides `appReady`).
        public let requires: GateEvents
    }

    /// The rules, longest prefix first (so the first match is the longest).
    public let rules: [Rule]
    /// What a path matching no rule needs (besides `appReady`).
    public let defaultRequirements: GateEvents
    /// Every rule's prefix bytes, back to back in rule order: matching reads these instead of the
    /// rules' 512-byte inline links, which would be copied per check.
    private let prefixBytes: [UInt8]
    /// What matching needs of each rule, in rule order.
    private let matchers: [Matcher]
    /// Every rule prepared for the word comparison, in rule order, when every prefix is short and
    /// plain (what apps gate: `/orders`); empty otherwise. Contiguous, so that a typical lookup is
    /// a few masked compares in one loop.
    private let shortMatchers: [ShortMatcher]

    /// One rule as matching reads it.
    private struct Matcher: Sendable {
        /// Where the rule's prefix lies in `prefixBytes`.
        var start: Int
        var end: Int
        var requires: GateEvents
        /// The prefix prepared for the fast comparison, where it is short and plain.
        var short: PathPrefix.ShortPrefix?
    }

    /// One rule whose prefix is short and plain, as the word comparison reads it.
    private struct ShortMatcher: Sendable {
        var prefix: PathPrefix.ShortPrefix
        var requires: GateEvents
    }

    /// Creates a policy.
    ///
    /// - Throws: ``RoutePolicy/PrefixError/invalidPrefix(_:)`` for a prefix that is not a path the
    ///   validator accepts without a query or fragment (`/...`, no `?` or `#`, no dot segment,
    ///   encoded delimiter or malformed escape, see ``LinkValidator``),
    ///   ``RoutePolicy/PrefixError/duplicatePrefix(_:)`` for a prefix named twice (after canonicalisation,
    ///   ignoring a trailing `/` and ASCII case: `/orders`, `/orders/` and `/Orders` are one rule).
    public init(
        rules: [(prefix: String, requires: GateEvents)],
        defaultRequirements: GateEvents = []
    ) throws(RoutePolicy.PrefixError) {
        var built: [Rule] = []
        built.reserveCapacity(rules.count)
        for rule in rules {
            guard let prefix = Self.canonicalPrefix(rule.prefix) else { throw .invalidPrefix(rule.prefix) }
            guard !built.contains(where: { Self.isSameRule($0.prefix, prefix) }) else {
                throw .duplicatePrefix(rule.prefix)
            }
            built.append(Rule(prefix: prefix, requires: rule.requires))
        }
        built.sort { $0.prefix.utf8Count > $1.prefix.utf8Count }
        self.rules = built
        self.defaultRequirements = defaultRequirements
        var bytes: [UInt8] = []
        var matchers: [Matcher] = []
        for rule in built {
            let start = bytes.count
            rule.prefix.withUTF8Bytes { bytes.append(contentsOf: $0) }
            let short = rule.prefix.withUTF8Bytes { PathPrefix.shortPrefix($0) }
            matchers.append(Matcher(start: start, end: bytes.count, requires: rule.requires, short: short))
        }
        self.prefixBytes = bytes
        self.matchers = matchers
        let shortMatchers = matchers.compactMap { matcher in
            matcher.short.map { ShortMatcher(prefix: $0, requires: matcher.requires) }
        }
        self.shortMatchers = shortMatchers.count == matchers.count ? shortMatchers : []
    }

    /// `prefix` in canonical form without trailing `/` (but `/` stays `/`), or `nil` when the
    /// validator (with no hosts) refuses it or it has a query or fragment.
    static func canonicalPrefix(_ prefix: String) -> DeepLink? {
        guard !prefix.utf8.contains(UInt8(ascii: "#")),
            case .success(let link) = LinkValidator(configuration: .init(allowedHosts: [])).validate(prefix),
            !link.hasQuery
        else { return nil }
        var count = link.utf8Count
        link.withUTF8Bytes { bytes in
            while count > 1, bytes[count - 1] == UInt8(ascii: "/") { count -= 1 }
        }
        guard count < link.utf8Count else { return link }
        return link.withUTF8Bytes { DeepLink(validatedUTF8: UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
    }

    /// Whether two canonical prefixes are one rule: the same length, and each under the other.
    private static func isSameRule(_ first: DeepLink, _ second: DeepLink) -> Bool {
        guard first.utf8Count == second.utf8Count else { return false }
        return first.withUTF8Bytes { first in
            second.withUTF8Bytes { second in PathPrefix.path(first, impliedLeadingSlash: false, isUnder: second) }
        }
    }

    /// Everything `link` needs before it may be routed, `appReady` included.
    ///
    /// - Complexity: O(r · p) for r rules of prefix length p; no allocation.
    public func requirements(for link: DeepLink) -> GateEvents {
        link._storage.span.withUnsafeBytes { storage in requirements(forPathIn: storage, count: link.pathUTF8Count) }
    }

    /// ``requirements(for:)`` of the path whose `count` bytes start `storage`, read where the
    /// record lies; the storage past the path is read too (16 bytes at once) when it holds them.
    func requirements(forPathIn storage: UnsafeRawBufferPointer, count: Int) -> GateEvents {
        let path = UnsafeRawBufferPointer(rebasing: storage[0..<count])
        let window =
            storage.count >= 16
            ? PathPrefix.Window(
                UInt64(littleEndian: storage.loadUnaligned(as: UInt64.self)),
                UInt64(littleEndian: storage.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            ) : nil
        if let window, !shortMatchers.isEmpty {
            // `nil`: a `%` among the compared bytes, which only the loop below answers.
            let matched = shortMatchers.withUnsafeBufferPointer { matchers -> GateEvents?? in
                for index in matchers.indices {
                    switch PathPrefix.path(path, window: window, isUnder: matchers[index].prefix) {
                    case true?: return .some(matchers[index].requires)
                    case false?: continue
                    case nil: return nil
                    }
                }
                return .some(nil)
            }
            if let matched { return (matched ?? defaultRequirements).union(.appReady) }
        }
        // Index loops: `for rule in rules` allocates an iterator per call in debug builds.
        let matched = prefixBytes.withUnsafeBytes { prefixes -> GateEvents? in
            matchers.withUnsafeBufferPointer { matchers -> GateEvents? in
                for index in matchers.indices {
                    let matcher = matchers.baseAddress! + index
                    let prefix = UnsafeRawBufferPointer(rebasing: prefixes[matcher.pointee.start..<matcher.pointee.end])
                    let isUnder =
                        if let window, let short = matcher.pointee.short {
                            PathPrefix.path(path, window: window, isUnder: prefix, prepared: short)
                        } else {
                            PathPrefix.path(path, impliedLeadingSlash: false, isUnder: prefix)
                        }
                    if isUnder { return matcher.pointee.requires }
                }
                return nil
            }
        }
        return (matched ?? defaultRequirements).union(.appReady)
    }
}

extension RoutePolicy {
    /// Why a ``RoutePolicy`` could not be built.
    public enum PrefixError: Error, Sendable, Hashable {
        /// The prefix is not a path the validator accepts (must start with `/`, fit a ``DeepLink``,
        /// hold no `?` or `#`, no dot segment, encoded delimiter, malformed escape, control or
        /// invisible character).
        case invalidPrefix(String)
        /// The same prefix appears in two rules (compared canonical, without a trailing `/`,
        /// ignoring ASCII case).
        case duplicatePrefix(String)
    }
}
