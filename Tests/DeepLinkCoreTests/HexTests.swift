import DeepLinkCore
import Testing

/// The package's one hex decoder, which percent escapes, signatures and key files all read with.
@Suite struct HexTests {
    @Test func everyByteIsADigitOfItsValueOrNone() {
        let digits = Array("0123456789abcdef".utf8)
        let capitals = Array("ABCDEF".utf8)
        for byte in UInt8.min...UInt8.max {
            let expected: UInt8? =
                digits.firstIndex(of: byte).map { UInt8($0) } ?? capitals.firstIndex(of: byte).map { UInt8($0 + 10) }
            let value = Hex.digitValue(byte)
            if let expected {
                #expect(value == expected, "byte \(byte)")
            } else {
                #expect(value >= 16, "byte \(byte)")
            }
        }
    }

    @Test func aByteIsSpelledByTwoDigitsOfEitherCase() {
        #expect(Hex.byte(UInt8(ascii: "4"), UInt8(ascii: "1")) == 0x41)
        #expect(Hex.byte(UInt8(ascii: "f"), UInt8(ascii: "F")) == 0xFF)
        #expect(Hex.byte(UInt8(ascii: "A"), UInt8(ascii: "b")) == 0xAB)
        #expect(Hex.byte(UInt8(ascii: "0"), UInt8(ascii: "0")) == 0)
        #expect(Hex.byte(UInt8(ascii: "g"), UInt8(ascii: "0")) == nil)
        #expect(Hex.byte(UInt8(ascii: "0"), UInt8(ascii: "G")) == nil)
        #expect(Hex.byte(UInt8(ascii: "%"), UInt8(ascii: "2")) == nil)
    }

    @Test func bytesOfValidDigits() {
        #expect(Hex.bytes("".utf8) == [])
        #expect(Hex.bytes("00ff7f80".utf8) == [0x00, 0xFF, 0x7F, 0x80])
        #expect(Hex.bytes("DeadBEEF".utf8) == [0xDE, 0xAD, 0xBE, 0xEF])
        #expect(Hex.bytes("deadbeef".utf8) == Hex.bytes("DEADBEEF".utf8))
    }

    @Test func bytesRefuseAnOddCount() {
        #expect(Hex.bytes("a".utf8) == nil)
        #expect(Hex.bytes("abc".utf8) == nil)
    }

    @Test func bytesRefuseABadDigitAnywhere() {
        #expect(Hex.bytes("0g".utf8) == nil)
        #expect(Hex.bytes("g0".utf8) == nil)
        #expect(Hex.bytes("00112 33".utf8) == nil)
        #expect(Hex.bytes("0011223x".utf8) == nil)
        #expect(Hex.bytes("0x11".utf8) == nil)
    }
}
