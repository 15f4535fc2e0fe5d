/// Latency histograms of the core's operations, recorded by strategies that drive DeepLinkCore.
///
/// Thread safety: a value type; one per worker thread, merged at the end.
package struct OperationHistograms: Sendable {
    package var parse = Histogram()
    package var validate = Histogram()
    package var enqueue = Histogram()
    package var gateOpenToRoute = Histogram()

    package init() {}

    /// Four histograms sharing one process-wide empty storage (copy on write): free for a
    /// strategy that records nothing into them; a first record copies, as with any histogram copy.
    static var unused: OperationHistograms {
        OperationHistograms(parse: empty, validate: empty, enqueue: empty, gateOpenToRoute: empty)
    }

    private static let empty = Histogram()

    private init(parse: Histogram, validate: Histogram, enqueue: Histogram, gateOpenToRoute: Histogram) {
        self.parse = parse
        self.validate = validate
        self.enqueue = enqueue
        self.gateOpenToRoute = gateOpenToRoute
    }

    package mutating func merge(_ other: OperationHistograms) {
        parse.merge(other.parse)
        validate.merge(other.validate)
        enqueue.merge(other.enqueue)
        gateOpenToRoute.merge(other.gateOpenToRoute)
    }
}
