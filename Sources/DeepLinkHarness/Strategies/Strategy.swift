/// One way of carrying a link across the install, run over the same journeys as the others. A
/// strategy walks a journey's script event by event and records every router call (with the
/// step that triggered it) in a ``StrategyObservation``; the ``Oracle`` judges it.
///
/// Thread safety: instances are not shared; each worker thread makes its own with
/// ``StrategyKind/make(context:)``.
package protocol Strategy {
    /// The kind (and report name) of this strategy.
    var kind: StrategyKind { get }
    /// The reasons for not routing that this strategy can tell apart and reports in its
    /// observations; the checker calls a different reason *misjudged* only within these.
    var distinctions: StrategyObservation.Reasons { get }
    /// Runs `journey` from a fresh app and records what was routed; strategies that drive
    /// DeepLinkCore record their operations' latencies in `metrics`.
    mutating func run(
        _ journey: Journey,
        into observation: inout StrategyObservation,
        metrics: inout OperationHistograms
    )
    /// Stops any helper threads; called once when the worker is done.
    mutating func finish()
    /// Called with each chunk of journeys before they are run one by one, in that order, so a
    /// strategy behind a pipe (``ExecStrategy``) can send them in one batch.
    mutating func prepare(_ journeys: [Journey])
}

extension Strategy {
    package mutating func finish() {}
    package mutating func prepare(_ journeys: [Journey]) {}

    /// Runs `journey` without recording operation latencies.
    package mutating func run(_ journey: Journey, into observation: inout StrategyObservation) {
        var metrics = OperationHistograms()
        run(journey, into: &observation, metrics: &metrics)
    }
}
