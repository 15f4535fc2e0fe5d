package import DeepLinkCore

/// Which of the core's schedule points one journey's controlled race reached, and which pairs of
/// them it interleaved: a thread parked before point `a` while another thread passed point `b`
/// first (the pair `a/b` of `coverage.csv`). Fixed size, no references: it rides in every
/// ``StrategyObservation``.
///
/// Thread safety: a value type; `Sendable`.
package struct ScheduleCoverage: Sendable {
    /// How many schedule points there are (``SchedulePoint``'s cases).
    static let pointCount = SchedulePoint.allCases.count
    /// Words of ``pairs``: one bit per ordered pair of points.
    static let pairWords = 7
    /// How many pairs ``pairs`` holds (a test checks every pair of points fits).
    package static let pairCapacity = pairWords * 64

    /// A bit per point (its raw value).
    package private(set) var reached: UInt64 = 0
    /// Bit `a * pointCount + b` per interleaved pair.
    private var pairs: InlineArray<7, UInt64> = InlineArray(repeating: 0)

    package init() {}

    /// Whether the race reached no point (no controlled race, or an `os` one).
    package var isEmpty: Bool { reached == 0 }

    @inline(__always)  // at every schedule point of a race
    package mutating func reach(_ point: SchedulePoint) {
        reached |= 1 << UInt64(point.rawValue)
    }

    /// A thread parked before `parked` let another one pass `passed` first.
    package mutating func interleave(parked: SchedulePoint, passed: SchedulePoint) {
        let bit = Int(parked.rawValue) * Self.pointCount + Int(passed.rawValue)
        pairs[bit >> 6] |= 1 << UInt64(bit & 63)
    }

    /// Whether point number `point` (``SchedulePoint`` raw value) was reached.
    func reached(point: Int) -> Bool { reached & (1 << UInt64(point)) != 0 }

    /// Whether pair number `pair` (`a * pointCount + b`) was interleaved.
    func interleaved(pair: Int) -> Bool { pairs[pair >> 6] & (1 << UInt64(pair & 63)) != 0 }

    /// Calls `body` with the number of every point reached, in order: a walk over the set bits,
    /// since a race reaches a handful of the points.
    @inline(__always)
    func forEachReachedPoint(_ body: (Int) -> Void) {
        Self.forEachSetBit(of: reached, offset: 0, body)
    }

    /// Calls `body` with the number of every pair interleaved, in order (set bits only, as
    /// ``forEachReachedPoint(_:)``).
    @inline(__always)
    func forEachInterleavedPair(_ body: (Int) -> Void) {
        for word in 0..<Self.pairWords { Self.forEachSetBit(of: pairs[word], offset: word << 6, body) }
    }

    @inline(__always)
    private static func forEachSetBit(of word: UInt64, offset: Int, _ body: (Int) -> Void) {
        var remaining = word
        while remaining != 0 {
            body(offset + remaining.trailingZeroBitCount)
            remaining &= remaining &- 1
        }
    }

    /// Adds what `other` reached and interleaved (an exhaustive journey's interleavings).
    package mutating func formUnion(_ other: ScheduleCoverage) {
        reached |= other.reached
        for word in 0..<Self.pairWords { pairs[word] |= other.pairs[word] }
    }

    /// The `coverage.csv` names of the points (kind `point`), in ``SchedulePoint`` order.
    package static let pointNames: [String] = SchedulePoint.allCases.map(\.name)
    /// The `coverage.csv` names of the pairs (kind `pair`), `a/b`, in pair-number order.
    package static let pairNames: [String] = SchedulePoint.allCases.flatMap { parked in
        SchedulePoint.allCases.map { passed in "\(parked.name)/\(passed.name)" }
    }
}
