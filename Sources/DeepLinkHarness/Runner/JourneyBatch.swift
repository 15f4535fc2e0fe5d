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
    /// The journeys' features (``CoverageCounts/featureNames`` order), counted once here: they
    /// are the same for every strategy, and every strategy's pass records every journey.
    var featureCounts = [UInt64](repeating: 0, count: CoverageCounts.featureNames.count)

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
        for index in featureCounts.indices { featureCounts[index] = 0 }
    }

    mutating func append(_ journey: Journey, oracle: Oracle) {
        journeys.append(journey)
        CoverageCounts.count(features: journey, into: &featureCounts)
        let expectation = oracle.expect(inPlace: &journeys[journeys.count - 1])
        if expectation.endedPending { undecided &+= 1 }
        expectations.append(expectation)
    }

    mutating func append(_ arrival: PreparedArrival, lagNanos lag: UInt64) {
        if arrival.expectation.endedPending { undecided &+= 1 }
        journeys.append(arrival.journey)
        CoverageCounts.count(features: arrival.journey, into: &featureCounts)
        expectations.append(arrival.expectation)
        lagNanos.append(lag)
        preparationNanos &+= arrival.preparationNanos
        preparationBytes &+= arrival.preparationBytes
    }
}
