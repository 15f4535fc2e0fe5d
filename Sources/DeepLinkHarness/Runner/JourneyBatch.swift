/// The journeys a worker runs through every strategy next, with the oracle's expectations, open
/// loop's start lags, and the harness's cost of preparing them (shared by the strategies).
///
/// Thread safety: a value type owned by one worker thread; its arrays keep their capacity.
struct JourneyBatch {
    var journeys: [Journey] = []
    var expectations: [Expectation] = []
    /// Open loop: each journey's start lag; empty in closed loop.
    var lagNanos: [UInt64] = []
    /// Time and bytes spent generating the journeys and asking the oracle.
    var preparationNanos: UInt64 = 0
    var preparationBytes: UInt64 = 0
    /// Journeys the oracle left undecided (a generator defect; expected 0).
    var undecided: UInt64 = 0

    init() {
        journeys.reserveCapacity(Runner.chunkSize)
        expectations.reserveCapacity(Runner.chunkSize)
    }

    var count: Int { journeys.count }

    mutating func removeAll() {
        journeys.removeAll(keepingCapacity: true)
        expectations.removeAll(keepingCapacity: true)
        lagNanos.removeAll(keepingCapacity: true)
        preparationNanos = 0
        preparationBytes = 0
        undecided = 0
    }

    mutating func append(_ journey: Journey, oracle: Oracle) {
        journeys.append(journey)
        let expectation = oracle.expect(inPlace: &journeys[journeys.count - 1])
        if expectation.endedPending { undecided &+= 1 }
        expectations.append(expectation)
    }

    mutating func append(_ arrival: PreparedArrival, lagNanos lag: UInt64) {
        if arrival.expectation.endedPending { undecided &+= 1 }
        journeys.append(arrival.journey)
        expectations.append(arrival.expectation)
        lagNanos.append(lag)
        preparationNanos &+= arrival.preparationNanos
        preparationBytes &+= arrival.preparationBytes
    }
}
