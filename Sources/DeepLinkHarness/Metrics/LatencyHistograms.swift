/// The five latency histograms of one strategy on one worker thread, as stored properties so that
/// recording mutates them in place (a `Histogram` copied out of a dictionary, recorded into and
/// stored back would copy its 300 KB of counts on every record).
///
/// Record per thread, ``merge(_:)`` the threads' values at the end, and hand ``dictionary`` to
/// ``StrategyReport/histograms``.
///
/// Thread safety: a value type; one per thread.
package struct LatencyHistograms: Sendable, Equatable {
    /// The metrics, in report order.
    package enum Metric: Int, Sendable, CaseIterable {
        case parse
        case validate
        case enqueue
        case gateOpenToRoute
        case journey

        /// The name in the reports (`gate_open_to_route` …).
        package var name: String {
            switch self {
            case .parse: DeepLinkHarness.Metric.parse
            case .validate: DeepLinkHarness.Metric.validate
            case .enqueue: DeepLinkHarness.Metric.enqueue
            case .gateOpenToRoute: DeepLinkHarness.Metric.gateOpenToRoute
            case .journey: DeepLinkHarness.Metric.journey
            }
        }
    }

    package var parse = Histogram()
    package var validate = Histogram()
    package var enqueue = Histogram()
    package var gateOpenToRoute = Histogram()
    package var journey = Histogram()

    /// Five empty histograms (five allocations of about 300 KB each).
    package init() {}

    /// Records `valueNanos` into `metric`'s histogram.
    ///
    /// - Complexity: O(1); never allocates.
    package mutating func record(_ metric: Metric, _ valueNanos: UInt64) {
        switch metric {
        case .parse: parse.record(valueNanos)
        case .validate: validate.record(valueNanos)
        case .enqueue: enqueue.record(valueNanos)
        case .gateOpenToRoute: gateOpenToRoute.record(valueNanos)
        case .journey: journey.record(valueNanos)
        }
    }

    /// Adds every histogram of `other` to this one's.
    package mutating func merge(_ other: LatencyHistograms) {
        parse.merge(other.parse)
        validate.merge(other.validate)
        enqueue.merge(other.enqueue)
        gateOpenToRoute.merge(other.gateOpenToRoute)
        journey.merge(other.journey)
    }

    /// The histograms keyed by report name, for ``StrategyReport/histograms``.
    package var dictionary: [String: Histogram] {
        [
            Metric.parse.name: parse, Metric.validate.name: validate, Metric.enqueue.name: enqueue,
            Metric.gateOpenToRoute.name: gateOpenToRoute, Metric.journey.name: journey,
        ]
    }
}
