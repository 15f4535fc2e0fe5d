/// One open-loop arrival's journey, generated and judged by the oracle ahead of its start when
/// there is time, with what that cost the harness.
struct PreparedArrival {
    var arrival: UInt64
    var journey: Journey
    var expectation: Expectation
    var preparationNanos: UInt64
    var preparationBytes: UInt64

    init(_ arrival: UInt64, shared: SharedRunState, oracle: Oracle, allocations: ThreadAllocationCounter) {
        let bytes = allocations.bytes
        let before = OperationClock.now()
        self.arrival = arrival
        journey = shared.generator.journey(at: shared.configuration.firstIndex &+ arrival)
        expectation = oracle.expect(journey)
        preparationNanos = OperationClock.nanos(from: before, to: OperationClock.now())
        preparationBytes = allocations.bytes &- bytes
    }
}
