/// The five latency histograms of one strategy on one worker thread, as stored properties so that
/// recording mutates them in place (a `Histogram` copied out of a dictionary, recorded into and
/// stored back would copy its 300 KB of counts on every record).
///
/// Record per thread, ``merge(_:)`` the threads' values at the end, and hand ``dictionary`` to
/// ``StrategyReport/histograms``.
///
/// Thread safety: a value type; one per thread.
public struct LatencyHistograms: Sendable, Equatable {
    /// The metrics, in report order.
    public enum Metric: Int, Sendable, CaseIterable {
        case parse
        case validate
        case enqueue
        case gateOpenToRoute
        case journey

        /// The name in the reports (`gate_open_to_route` …).
        public var name: String {
            switch self {
            case .parse: DeepLinkHarness.Metric.parse
            case .validate: DeepLinkHarness.Metric.validate
            case .enqueue: DeepLinkHarness.Metric.enqueue
            case .gateOpenToRoute: DeepLinkHarness.Metric.gateOpenToRoute
            case .journey: DeepLinkHarness.Metric.journey
            }
        }
    }

    public var parse = Histogram()
    public var validate = Histogram()
    public var enqueue = Histogram()
    public var gateOpenToRoute = Histogram()
    public var journey = Histogram()

    /// Five empty histograms (five allocations of about 300 KB each).
    public init() {}

    /// Records `valueNanos` into `metric`'s histogram.
    ///
    /// - Complexity: O(1); never allocates.
    public mutating func record(_ metric: Metric, _ valueNanos: UInt64) {
        switch metric {
        case .parse: parse.record(valueNanos)
        case .validate: validate.record(valueNanos)
        case .enqueue: enqueue.record(valueNanos)
        case .gateOpenToRoute: gateOpenToRoute.record(valueNanos)
        case .journey: journey.record(valueNanos)
        }
    }

    /// Adds every histogram of `other` to this one's.
    public mutating func merge(_ other: LatencyHistograms) {
        parse.merge(other.parse)
        validate.merge(other.validate)
        enqueue.merge(other.enqueue)
        gateOpenToRoute.merge(other.gateOpenToRoute)
        journey.merge(other.journey)
    }

    /// The histograms keyed by report name, for ``StrategyReport/histograms``.
    public var dictionary: [String: Histogram] {
        [
            Metric.parse.name: parse, Metric.validate.name: validate, Metric.enqueue.name: enqueue,
            Metric.gateOpenToRoute.name: gateOpenToRoute, Metric.journey.name: journey,
        ]
    }
}
