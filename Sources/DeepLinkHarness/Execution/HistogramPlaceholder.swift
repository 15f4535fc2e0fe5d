// Placeholder with the metrics branch's `Histogram` interface so this branch compiles until that
// branch lands on main; deleted at the merge. Records nothing.
public struct Histogram: Sendable {
    public init() {}
    public var count: UInt64 { 0 }
    public mutating func record(_ valueNanos: UInt64) {}
    public mutating func merge(_ other: Histogram) {}
    public func value(atPercentile p: Double) -> UInt64 { 0 }
}
