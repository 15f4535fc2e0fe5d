/// A cursor over a fuzz input: a few leading bytes choose options, the rest is the payload.
struct FuzzInput {
    private(set) var bytes: ArraySlice<UInt8>

    init(_ input: UnsafeRawBufferPointer) {
        bytes = Array(input)[...]
    }

    /// The next byte, or 0 when the input is used up.
    mutating func byte() -> UInt8 {
        bytes.popFirst() ?? 0
    }

    /// A number in `0..<bound` taken from the next byte.
    mutating func choose(_ bound: Int) -> Int {
        Int(byte()) % bound
    }

    /// The next little-endian `UInt64` (missing bytes read as 0).
    mutating func uint64() -> UInt64 {
        var value: UInt64 = 0
        for shift in stride(from: 0, to: 64, by: 8) { value |= UInt64(byte()) << UInt64(shift) }
        return value
    }

    /// Up to `count` bytes (fewer when the input ends).
    mutating func take(_ count: Int) -> [UInt8] {
        let taken = bytes.prefix(max(0, count))
        bytes = bytes.dropFirst(taken.count)
        return Array(taken)
    }

    /// Everything that is left.
    mutating func rest() -> [UInt8] {
        defer { bytes = [] }
        return Array(bytes)
    }

    var isEmpty: Bool { bytes.isEmpty }
}
