/// One journey's outcome in one scenario class: the key of a strategy's outcome counters.
///
/// `outcome` is one of ``Outcome``'s names: `routed`, `misrouted`, `duplicated`, `premature`,
/// `lost`, `expired`, `rejected:<reason>`, `superseded`, `organic`, `notSet`, `noLink`,
/// `crashWindow`.
///
/// Thread safety: a value type.
package struct OutcomeKey: Sendable, Hashable {
    package var scenarioClass: String
    package var outcome: String

    package init(scenarioClass: String, outcome: String) {
        self.scenarioClass = scenarioClass
        self.outcome = outcome
    }
}
