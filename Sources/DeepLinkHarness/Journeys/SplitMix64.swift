/// SplitMix64 (Steele, Lea, Flood), seeded by hashing a seed and a counter.
///
/// Thread safety: a value type; each journey owns its own.
package struct SplitMix64: Sendable {
    package var state: UInt64

    /// A plain sequence from `seed` (for corpora and tests; journeys use ``init(seed:index:)``).
    package init(seed: UInt64) { state = seed }

    package init(seed: UInt64, index: UInt64) {
        state =
            Self.mix(seed &+ 0x9E37_79B9_7F4A_7C15) ^ Self.mix(index &* 0xD1B5_4A32_D192_ED03 &+ 0x2545_F491_4F6C_DD1D)
    }

    @inline(__always)
    package static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    @inline(__always)
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// A uniform double in [0, 1).
    @inline(__always)
    package mutating func unit() -> Double { Double(next() >> 11) * 0x1.0p-53 }

    /// A uniform integer in `range`.
    @inline(__always)
    package mutating func uniform(_ range: ClosedRange<UInt32>) -> UInt32 {
        let width = UInt64(range.upperBound - range.lowerBound) + 1
        return range.lowerBound + UInt32(truncatingIfNeeded: (next() >> 32) % width)
    }

    @inline(__always)
    package mutating func chance(_ probability: Double) -> Bool { unit() < probability }

    @inline(__always)
    package mutating func element(_ values: [UInt8]) -> UInt8 { values[Int(next() % UInt64(values.count))] }
}

extension SplitMix64: RandomNumberGenerator {}
