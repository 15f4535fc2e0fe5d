import DeepLinkCoreTestSupport
import Testing

@testable import DeepLinkCore

/// The signature block's hex digits are checked and read eight at a time; both must give the
/// byte-by-byte rule's answer for every byte in every position.
@Suite struct SignatureWordTests {
    private static func isLowercaseHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }

    @Test func everyByteInEveryPositionIsJudgedAsAlone() {
        let digits = Array("0123456789abcdef".utf8)
        var generator = SeededGenerator(seed: 0x5EED_CAFE)
        var refused = 0
        for position in 0..<8 {
            for value in 0...255 {
                // Around the byte under test: random digits, so that a carry or borrow from a
                // neighbour would show.
                var bytes = (0..<8).map { _ in digits.randomElement(using: &generator)! }
                bytes[position] = UInt8(value)
                let word = bytes.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                let expected = Self.isLowercaseHexDigit(UInt8(value))
                #expect(LinkSignature._isLowercaseHexWord(word) == expected, "byte \(value) at \(position)")
                if !expected { refused += 1 }
            }
        }
        #expect(refused == 8 * (256 - 16))
    }

    @Test func rangesOfEveryLengthAgreeWithTheByteRule() {
        var generator = SeededGenerator(seed: 0xA5)
        let digits = Array("0123456789abcdef".utf8)
        let others = Array("ABCDEFg/:`@G&=".utf8)
        for _ in 0..<4_000 {
            let bytes = (0..<Int(generator.next() % 40)).map { _ in
                (generator.next() % 6 == 0 ? others : digits).randomElement(using: &generator)!
            }
            let start = bytes.isEmpty ? 0 : Int(generator.next() % UInt64(bytes.count + 1))
            let end = start + Int(generator.next() % UInt64(bytes.count - start + 1))
            let expected = bytes[start..<end].allSatisfy(Self.isLowercaseHexDigit)
            bytes.withUnsafeBytes { raw in
                #expect(LinkSignature._isLowercaseHex(raw, start..<end) == expected, "\(bytes) \(start)..<\(end)")
            }
        }
    }

    @Test func eightDigitsReadAsTheValueTheySpell() {
        var generator = SeededGenerator(seed: 0xD16175)
        for _ in 0..<10_000 {
            let value = UInt32(truncatingIfNeeded: generator.next())
            let text = String(value, radix: 16)
            let digits = Array((String(repeating: "0", count: 8 - text.utf8.count) + text).utf8)
            // With bytes before and after, as inside a link.
            let link = Array("?dl_nonce=".utf8) + digits + Array("&".utf8)
            link.withUnsafeBytes { raw in
                #expect(LinkSignature._hexWordValue(raw, at: 10) == value, "\(text)")
            }
        }
    }
}
