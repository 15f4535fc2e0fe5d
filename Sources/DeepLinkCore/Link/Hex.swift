/// Hex digits (`0-9`, `a-f`, `A-F`), read one way for the whole package: percent escapes in links
/// and referrers, signature nonces and tags, key-file secrets.
///
/// `package`: a helper of the core and the modules beside it, not API. Inlinable, since the
/// referrer scan and the escape decoders call it per byte from other modules' code too.
@usableFromInline
package enum Hex {
    /// The value of the hex digit `byte`, or a value of 16 or more when `byte` is no hex digit: one
    /// table load and no branch, so that two digits are checked at once (`high | low < 16`).
    @inlinable @inline(__always)
    package static func digitValue(_ byte: UInt8) -> UInt8 {
        // One entry per byte (sixteen to a line; a `\` joins the lines): `0` plus the digit's value
        // (`:` is 10, ..., `?` is 15), or `z` for a byte that is no hex digit.
        let table: StaticString = """
            zzzzzzzzzzzzzzzz\
            zzzzzzzzzzzzzzzz\
            zzzzzzzzzzzzzzzz\
            0123456789zzzzzz\
            z:;<=>?zzzzzzzzz\
            zzzzzzzzzzzzzzzz\
            z:;<=>?zzzzzzzzz\
            zzzzzzzzzzzzzzzz\
            zzzzzzzzzzzzzzzz\
            zzzzzzzzzzzzzzzz\
            zzzzzzzzzzzzzzzz\
            zzzzzzzzzzzzzzzz\
            zzzzzzzzzzzzzzzz\
            zzzzzzzzzzzzzzzz\
            zzzzzzzzzzzzzzzz\
            zzzzzzzzzzzzzzzz
            """
        return table.utf8Start[Int(byte)] &- UInt8(ascii: "0")
    }

    /// The byte the digits `high` and `low` spell, or `nil` when either is no hex digit.
    @inlinable @inline(__always)
    package static func byte(_ high: UInt8, _ low: UInt8) -> UInt8? {
        let high = digitValue(high)
        let low = digitValue(low)
        return high | low < 16 ? high &<< 4 | low : nil
    }

    /// The bytes that `digits` spell, two digits to a byte, or `nil` when their count is odd or one
    /// of them is no hex digit.
    package static func bytes(_ digits: some Collection<UInt8>) -> [UInt8]? {
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = digits.startIndex
        while index != digits.endIndex {
            let high = digits[index]
            index = digits.index(after: index)
            guard let byte = byte(high, digits[index]) else { return nil }
            index = digits.index(after: index)
            bytes.append(byte)
        }
        return bytes
    }
}
