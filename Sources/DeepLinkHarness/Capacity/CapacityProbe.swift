/// One step of a sweep to measure: an open-loop run of `journeys` arrivals at `offeredPerSecond`
/// on `threads` threads, journey indices from `firstIndex`.
///
/// Thread safety: a value type.
package struct CapacityProbe: Sendable, Equatable {
    package var threads: Int
    package var offeredPerSecond: Double
    package var journeys: UInt64
    package var firstIndex: UInt64
}
