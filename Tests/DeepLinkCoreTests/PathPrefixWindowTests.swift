import DeepLinkCoreTestSupport
import Testing

@testable import DeepLinkCore

/// The word-at-a-time match of short, plain prefixes must give the unit-by-unit rule's answer for
/// every path, whatever the path's storage holds past the path.
@Suite struct PathPrefixWindowTests {
    @Test func shortPrefixMatchAgreesWithTheUnitByUnitRule() {
        var generator = SeededGenerator(seed: 0xA11CE)
        let alphabet = Array("abcdeoOrsABZz09-_~/;".utf8)
        var checked = 0
        var matched = 0
        for _ in 0..<40_000 {
            // A plain prefix: `/` and 0...15 more bytes, sometimes with trailing slashes.
            var prefix: [UInt8] = [UInt8(ascii: "/")]
            for _ in 0..<Int(generator.next() % 16) { prefix.append(generator.pick(alphabet)) }
            if generator.next() % 8 == 0 { prefix.append(UInt8(ascii: "/")) }
            // A path: often the prefix itself in another case, with escapes and a tail.
            var path: [UInt8] = []
            if generator.next() % 4 != 0 {
                for byte in prefix {
                    switch generator.next() % 10 {
                    case 0:
                        let hex = String(byte, radix: 16, uppercase: generator.next() % 2 == 0)
                        path.append(contentsOf: Array("%\(hex)".utf8))
                    case 1, 2:
                        // Another case for a letter (and another byte for some others).
                        let flips = byte | 0x20 != byte || LinkValidator._asciiLowercased(byte) != byte
                        path.append(flips ? byte ^ 0x20 : byte)
                    default: path.append(byte)
                    }
                }
            } else {
                path.append(UInt8(ascii: "/"))
            }
            for _ in 0..<Int(generator.next() % 6) {
                path.append(Array("/;?%a".utf8)[Int(generator.next() % 5)])
                path.append(generator.pick(alphabet))
            }
            if generator.next() % 5 == 0, !path.isEmpty { path.removeLast(Int(generator.next() % UInt64(path.count))) }
            // The storage: the path, then bytes that are not the path's.
            var storage = path
            while storage.count < 32 { storage.append(UInt8(truncatingIfNeeded: generator.next())) }
            let agree = prefix.withUnsafeBytes { prefix -> Bool in
                storage.withUnsafeBytes { storage -> Bool in
                    guard let short = PathPrefix.shortPrefix(prefix) else { return true }
                    let path = UnsafeRawBufferPointer(rebasing: storage[0..<path.count])
                    let window = PathPrefix.Window(
                        UInt64(littleEndian: storage.loadUnaligned(as: UInt64.self)),
                        UInt64(littleEndian: storage.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
                    )
                    let fast = PathPrefix.path(path, window: window, isUnder: prefix, prepared: short)
                    let rule = PathPrefix.path(path, impliedLeadingSlash: false, isUnder: prefix)
                    checked += 1
                    if rule { matched += 1 }
                    return fast == rule
                }
            }
            let names = (String(decoding: prefix, as: UTF8.self), String(decoding: path, as: UTF8.self))
            #expect(agree, "prefix \(names.0) path \(names.1)")
            if !agree { return }
        }
        // The generator must reach both answers often, or the agreement says little.
        #expect(checked > 30_000)
        #expect(matched > 5_000)
        #expect(checked - matched > 5_000)
    }

    /// A policy whose prefixes are all short and plain answers from its word-compare table; it must
    /// answer what the rule says: the longest prefix the path is under (by the unit-by-unit rule),
    /// else the default, and `appReady` always.
    @Test func policyOfShortPrefixesAnswersByTheRule() throws {
        var generator = SeededGenerator(seed: 0x90_11C7)
        let alphabet = Array("abdeorsORS09-".utf8)
        var matched = 0
        var checked = 0
        for _ in 0..<2_000 {
            var prefixes: [String] = []
            for _ in 0..<(1 + Int(generator.next() % 5)) {
                var prefix = "/"
                for _ in 0..<Int(generator.next() % 9) {
                    prefix.append(Character(UnicodeScalar(generator.pick(alphabet))))
                    if generator.next() % 6 == 0 { prefix.append("/") }
                }
                prefixes.append(prefix)
            }
            let rules = prefixes.enumerated().map {
                (prefix: $0.element, requires: GateEvents(rawValue: 4 << $0.offset))
            }
            guard let policy = try? RoutePolicy(rules: rules, defaultRequirements: .loggedIn) else { continue }
            for _ in 0..<20 {
                // Often one of the prefixes in another case, then a tail.
                var path = generator.next() % 4 == 0 ? "/" : prefixes[Int(generator.next() % UInt64(prefixes.count))]
                if generator.next() % 3 == 0 { path = path.uppercased() }
                for _ in 0..<Int(generator.next() % 4) {
                    path.append(["/", ";", "?", "%41", "a", "r"][Int(generator.next() % 6)])
                }
                guard let link = DeepLink(validated: path) else { continue }
                let expected =
                    policy.rules.first { rule in
                        link.withUTF8Bytes { bytes in
                            rule.prefix.withUTF8Bytes { prefix in
                                PathPrefix.path(
                                    UnsafeRawBufferPointer(
                                        rebasing: UnsafeRawBufferPointer(bytes)[0..<link.pathUTF8Count]
                                    ),
                                    impliedLeadingSlash: false,
                                    isUnder: UnsafeRawBufferPointer(prefix)
                                )
                            }
                        }
                    }?.requires ?? .loggedIn
                checked += 1
                if expected != .loggedIn { matched += 1 }
                #expect(policy.requirements(for: link) == expected.union(.appReady), "\(prefixes) \(path)")
            }
        }
        #expect(checked > 20_000)
        #expect(matched > 5_000)
        #expect(checked - matched > 5_000)
    }

    @Test func onlyShortPlainPrefixesArePrepared() {
        func prepared(_ prefix: String) -> Bool {
            Array(prefix.utf8).withUnsafeBytes { PathPrefix.shortPrefix($0) != nil }
        }
        #expect(prepared("/orders"))
        #expect(prepared("/orders/"))
        #expect(prepared("/"))
        #expect(prepared("/0123456789abcde"))
        #expect(!prepared("/0123456789abcdef"))
        #expect(!prepared("/a%20b"))
        #expect(!prepared("orders"))
        #expect(!prepared(""))
    }
}

extension SeededGenerator {
    fileprivate mutating func pick(_ bytes: [UInt8]) -> UInt8 { bytes[Int(next() % UInt64(bytes.count))] }
}
