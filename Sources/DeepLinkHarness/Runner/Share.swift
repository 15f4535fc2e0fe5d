/// A batch's preparation cost split equally among the strategies (the first ones take the
/// remainder), so the strategies' harness shares add up to what preparing cost.
struct Share {
    let nanos: (each: UInt64, remainder: UInt64)
    let bytes: (each: UInt64, remainder: UInt64)

    init(_ batch: JourneyBatch, strategies: Int) {
        let count = UInt64(max(1, strategies))
        nanos = (batch.preparationNanos / count, batch.preparationNanos % count)
        bytes = (batch.preparationBytes / count, batch.preparationBytes % count)
    }

    func of(_ index: Int) -> (nanos: UInt64, bytes: UInt64) {
        (
            nanos.each &+ (UInt64(index) < nanos.remainder ? 1 : 0),
            bytes.each &+ (UInt64(index) < bytes.remainder ? 1 : 0)
        )
    }
}
