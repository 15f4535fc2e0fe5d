/// Latency metric names (histogram keys), in report order.
///
/// Thread safety: constants and pure functions.
package enum Metric {
    package static let parse = "parse"
    package static let validate = "validate"
    package static let enqueue = "enqueue"
    package static let gateOpenToRoute = "gate_open_to_route"
    package static let journey = "journey"
    /// Open loop only: the journey's latency from its intended start (start lag + `journey`).
    /// Not in ``all`` (the metrics every run records); ``ordered(_:)`` puts it after them.
    package static let journeyCorrected = "journey_corrected"
    /// `journey` split by ``Journey/racing``: racing journeys only, and the others. Absent for a
    /// strategy without journeys of that kind (and in reports written before the split).
    package static let journeyRacing = "journey_racing"
    package static let journeyNonRacing = "journey_non_racing"

    package static let all = [parse, validate, enqueue, gateOpenToRoute, journey]

    /// `names` in report order: the known metrics first in ``all``'s order, then others sorted.
    package static func ordered(_ names: some Sequence<String>) -> [String] {
        let set = Set(names)
        let known = all.filter { set.contains($0) }
        let others = set.subtracting(all).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return known + others
    }
}
