import DeepLinkCore
import Testing

/// A field decoded to plain bytes, for comparisons in tests.
struct DecodedField: Equatable, CustomStringConvertible {
    var name: [UInt8]
    var value: [UInt8]

    init(_ name: [UInt8], _ value: [UInt8]) {
        self.name = name
        self.value = value
    }

    init(_ name: String, _ value: String) {
        self.init(Array(name.utf8), Array(value.utf8))
    }

    init(_ field: ReferrerField) {
        self.init(field.withDecodedName { Array($0) }, field.withDecodedValue { Array($0) })
    }

    var description: String {
        "\(String(decoding: name, as: UTF8.self))=\(String(decoding: value, as: UTF8.self))"
    }
}

/// The plain WHATWG fields of `input`, decoded.
func whatwgFields(_ input: [UInt8]) -> [DecodedField] {
    input.withUnsafeBytes { bytes in ReferrerFields(unsafeBytes: bytes).map(DecodedField.init) }
}

func whatwgFields(_ input: String) -> [DecodedField] { whatwgFields(Array(input.utf8)) }

/// One unit test per rule of WHATWG `application/x-www-form-urlencoded` parsing.
@Suite struct ReferrerGrammarTests {
    @Test func splitsOnAmpersand() {
        #expect(whatwgFields("a=1&b=2&c=3") == [.init("a", "1"), .init("b", "2"), .init("c", "3")])
    }

    @Test func skipsEmptyPieces() {
        #expect(whatwgFields("&&a=1&&&b=2&") == [.init("a", "1"), .init("b", "2")])
        #expect(whatwgFields("").isEmpty)
        #expect(whatwgFields("&").isEmpty)
        #expect(whatwgFields("&&&").isEmpty)
    }

    @Test func firstEqualsSplitsNameFromValue() {
        #expect(whatwgFields("a=b=c") == [.init("a", "b=c")])
        #expect(whatwgFields("=x") == [.init("", "x")])
        #expect(whatwgFields("=") == [.init("", "")])
        #expect(whatwgFields("==") == [.init("", "=")])
    }

    @Test func noEqualsMeansEmptyValue() {
        #expect(whatwgFields("flag&a=1") == [.init("flag", ""), .init("a", "1")])
        #expect(whatwgFields("1234567") == [.init("1234567", "")])
        let hasSeparator = Array("a&b=".utf8).withUnsafeBytes { bytes in
            ReferrerFields(unsafeBytes: bytes).map(\.hasSeparator)
        }
        #expect(hasSeparator == [false, true])
    }

    @Test func plusIsSpace() {
        #expect(whatwgFields("a+b=c+d++") == [.init("a b", "c d  ")])
        #expect(whatwgFields("x=%2B") == [.init("x", "+")])
    }

    @Test func validPercentEscapesDecodeInEitherCase() {
        #expect(whatwgFields("k=%2Fproduct%2f42") == [.init("k", "/product/42")])
        #expect(whatwgFields("%6B%65%79=%41") == [.init("key", "A")])
        #expect(whatwgFields("a=%26%3D") == [.init("a", "&=")])
    }

    @Test func invalidPercentSequencesStayLiteral() {
        #expect(whatwgFields("a=%") == [.init("a", "%")])
        #expect(whatwgFields("a=%2") == [.init("a", "%2")])
        #expect(whatwgFields("a=%zz") == [.init("a", "%zz")])
        #expect(whatwgFields("a=%%41") == [.init("a", "%A")])
        #expect(whatwgFields("a=%G1%1") == [.init("a", "%G1%1")])
        #expect(whatwgFields("a=100%") == [.init("a", "100%")])
    }

    @Test func decodedBytesMayBeInvalidUTF8AndAreKeptRaw() {
        let fields = whatwgFields("a=%FF%00%C3%A9")
        #expect(fields == [.init([UInt8(ascii: "a")], [0xFF, 0x00, 0xC3, 0xA9])])
        let display = Array("a=%FF%C3%A9".utf8).withUnsafeBytes { bytes in
            ReferrerFields(unsafeBytes: bytes).map(\.decodedValue)
        }
        #expect(display == ["\u{FFFD}é"])
    }

    @Test func rawViewsPointIntoTheInput() {
        let input = Array("utm_source=google&deeplink=%2Fa".utf8)
        input.withUnsafeBytes { bytes in
            let fields = Array(ReferrerFields(unsafeBytes: bytes))
            #expect(fields.count == 2)
            #expect(fields[1].rawName.baseAddress == bytes.baseAddress! + 18)
            #expect(Array(fields[1].rawValue) == Array("%2Fa".utf8))
            #expect(Array(fields[1].rawField) == Array("deeplink=%2Fa".utf8))
        }
    }

    @Test func comparesNamesWithoutMaterialising() {
        let input = Array("%75tm_source=g&utm+x=1".utf8)
        input.withUnsafeBytes { bytes in
            let fields = Array(ReferrerFields(unsafeBytes: bytes))
            #expect(fields[0].nameEquals("utm_source" as StaticString))
            #expect(fields[0].nameEquals("utm_source" as String))
            #expect(!fields[0].nameEquals("utm_sourc" as StaticString))
            #expect(!fields[0].nameEquals("utm_sources" as StaticString))
            #expect(fields[1].nameEquals("utm x" as StaticString))
            #expect(fields[0].valueEquals("g"))
        }
    }

    @Test func decodesIntoCallerSuppliedBuffer() {
        let input = Array("k=%2Fp%3Fq%3D1+2".utf8)
        input.withUnsafeBytes { bytes in
            let field = ReferrerFields(unsafeBytes: bytes).first(named: "k" as StaticString)
            #expect(field?.decodedValueCount == 8)
            var buffer = [UInt8](repeating: 0, count: 16)
            let written = buffer.withUnsafeMutableBytes { field?.decodeValue(into: $0) }
            #expect(written == 8)
            #expect(Array(buffer[0..<8]) == Array("/p?q=1 2".utf8))
            var small = [UInt8](repeating: 0, count: 4)
            #expect(small.withUnsafeMutableBytes { field?.decodeValue(into: $0) } == .some(nil))
        }
    }

    @Test func formDecodingHelpers() {
        let raw = Array("a%3Db".utf8)
        raw.withUnsafeBytes { bytes in
            #expect(FormDecoding.decodedCount(bytes) == 3)
            #expect(FormDecoding.isDoubleEncoded(bytes))
            #expect(FormDecoding.decoded(bytes, equals: "a=b" as StaticString))
        }
        for (text, expected) in [
            ("a%26b", true), ("a%3db", true), ("a=b%3D", false), ("a&b%26", false), ("abc", false),
        ] {
            #expect(Array(text.utf8).withUnsafeBytes { FormDecoding.isDoubleEncoded($0) } == expected, "\(text)")
        }
    }
}
