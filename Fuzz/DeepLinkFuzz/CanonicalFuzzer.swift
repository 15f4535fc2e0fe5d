import DeepLinkCore
import DeepLinkHarness

/// The canonical form and the policy matcher: every accepted link is a fixed point of
/// canonicalisation (validating its bytes again, or any respelling of its unreserved bytes as
/// escapes, yields the same link), and `hasPathPrefix`, the validator's route table and
/// `RoutePolicy` agree with ``Reference/pathIsUnder(_:prefix:)``, a plain string comparison.
///
/// Input: one byte picks the validator, one the prefix length, then a prefix (its first bytes are
/// the rule, spelled as the input says), the rest is the payload.
enum CanonicalFuzzer {
    static let validators = [
        ExampleApp.validator,
        LinkValidator(configuration: .init(allowedHosts: ["nerdy.pro"], customSchemes: ["myapp"])),
    ]

    /// Fixed rules, some written with escapes, case and trailing slashes, to check the policy's
    /// longest-match against the reference.
    static let rules: [(prefix: String, requires: GateEvents)] = [
        (prefix: "/orders/", requires: .loggedIn), (prefix: "/%61ccount", requires: .loggedIn),
        (prefix: "/Product", requires: []), (prefix: "/orders/42/refund", requires: .custom(AppEvent.Custom(id: 0)!)),
        (prefix: "/caf%c3%a9", requires: .loggedIn),
    ]

    static let policy: RoutePolicy = {
        do { return try RoutePolicy(rules: rules) } catch { preconditionFailure("valid fuzz rules: \(error)") }
    }()

    static func run(_ input: UnsafeRawBufferPointer) {
        var cursor = FuzzInput(input)
        let validator = validators[cursor.choose(validators.count)]
        let prefixLength = cursor.choose(24)
        let prefix = cursor.take(prefixLength)
        let payload = cursor.rest()
        guard case .success(let link) = payload.withUnsafeBytes({ validator.validate($0) }) else { return }
        let bytes = link.withUTF8Bytes { Array($0) }
        checkFixedPoint(link, bytes: bytes, validator: validator)
        let path = Array(bytes.prefix { $0 != UInt8(ascii: "?") })
        checkPrefix(link, path: path, prefix: prefix)
        // A prefix taken from the link's own path, respelled: a cut at any byte, case flipped,
        // unreserved bytes escaped, a trailing slash added.
        let cut = Array(path.prefix(max(1, prefixLength % max(1, path.count + 1))))
        checkPrefix(link, path: path, prefix: respelled(cut, flips: prefix))
        checkPolicy(link, path: path)
        checkRouteTable(link, path: path, prefix: cut)
    }

    static func checkFixedPoint(_ link: DeepLink, bytes: [UInt8], validator: LinkValidator) {
        fuzzCheck(Reference.canonical(bytes) == bytes, "the link is not canonical: \(link)")
        let again = bytes.withUnsafeBytes { validator.validate($0) }
        fuzzCheck(again == .success(link), "validating the link again changed it: \(link) → \(again)")
        let spelled = respelled(bytes, flips: [])
        let respelledAgain = spelled.withUnsafeBytes { validator.validate($0) }
        fuzzCheck(respelledAgain == .success(link), "escaping unreserved bytes changed the link: \(link)")
    }

    /// `bytes` with every unreserved byte outside an escape written as a lowercase-hex escape
    /// (when `flips` is empty) or, driven by `flips`' bits, with ASCII case flipped, some unreserved
    /// bytes escaped and a trailing `/` added.
    static func respelled(_ bytes: [UInt8], flips: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let bits = flips.isEmpty ? 0b10 : flips[index % flips.count]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count {
                output += bytes[index..<index + 3]
                index += 3
                continue
            }
            if bits & 0b10 != 0, Reference.isUnreserved(byte), byte != UInt8(ascii: ".") {
                output += Array(("%" + String(byte, radix: 16)).utf8)
            } else if bits & 0b01 != 0, Reference.isUnreserved(byte), byte | 0x20 >= 0x61, byte | 0x20 <= 0x7A {
                output.append(byte ^ 0x20)
            } else {
                output.append(byte)
            }
            index += 1
        }
        if let last = flips.last, last & 0b100 != 0 { output.append(UInt8(ascii: "/")) }
        return output
    }

    static func checkPrefix(_ link: DeepLink, path: [UInt8], prefix: [UInt8]) {
        let matched = prefix.withUnsafeBytes { link.hasPathPrefix(bytes: $0) }
        let expected = Reference.pathIsUnder(path, prefix: prefix)
        fuzzCheck(
            matched == expected,
            "hasPathPrefix(\(String(decoding: prefix, as: UTF8.self))) on \(link): \(matched), reference \(expected)"
        )
    }

    /// The policy's requirements are those of the longest reference-matching rule.
    static func checkPolicy(_ link: DeepLink, path: [UInt8]) {
        var best: (length: Int, requires: GateEvents)?
        for rule in rules {
            let prefix = Array(rule.prefix.utf8)
            guard Reference.pathIsUnder(path, prefix: prefix) else { continue }
            var canonical = Reference.canonical(prefix)
            while canonical.count > 1, canonical.last == UInt8(ascii: "/") { canonical.removeLast() }
            if best == nil || canonical.count > best!.length { best = (canonical.count, rule.requires) }
        }
        let expected = (best?.requires ?? []).union(.appReady)
        fuzzCheck(
            policy.requirements(for: link) == expected,
            "policy requirements for \(link) differ from the reference"
        )
    }

    /// A route table with one route accepts the link exactly when the reference says it is under it.
    static func checkRouteTable(_ link: DeepLink, path: [UInt8], prefix: [UInt8]) {
        let route = String(decoding: prefix, as: UTF8.self)
        guard Array(route.utf8) == prefix else { return }  // a route is a String
        let routed = LinkValidator(configuration: .init(allowedHosts: [], routes: [route]))
        let accepted = link.withUTF8Bytes { routed.validate($0) }
        let expected = Reference.pathIsUnder(path, prefix: prefix)
        fuzzCheck((try? accepted.get()) == (expected ? link : nil), "route \(route) on \(link): \(accepted)")
        if !expected { fuzzCheck(accepted == .failure(.unknownRoute), "route \(route) refused \(link) otherwise") }
    }
}
