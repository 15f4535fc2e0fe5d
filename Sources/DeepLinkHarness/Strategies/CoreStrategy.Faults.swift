import DeepLinkCore

#if canImport(Glibc)
import Glibc
#endif

extension CoreStrategy {
    /// Deliberate miswirings of the core, for tests of the harness itself.
    public struct Faults: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// The router forwards every route twice (a resolver that routes twice).
        public static let routeTwice = Faults(rawValue: 1 << 0)
        /// The app signals `loggedIn` at every launch (a gate that ignores the login).
        public static let ignoreLoginGate = Faults(rawValue: 1 << 1)
        /// A relaunch starts from an empty container (a store that is not durable).
        public static let forgetOnKill = Faults(rawValue: 1 << 2)
        /// Rejections are reported with another reason than the validator's (expected: misjudged).
        public static let wrongRejectionReason = Faults(rawValue: 1 << 3)
        /// Play's organic and `(not set)` placeholders are read as each other (expected: misjudged).
        public static let placeholderMisread = Faults(rawValue: 1 << 4)
        /// The app navigates one event after the router call (expected: late).
        public static let lateRoute = Faults(rawValue: 1 << 5)
        /// Referrers are captured without Play's install-begin timestamp, so a re-delivery under a
        /// new id is not recognised (expected: duplicated).
        public static let noTimestampDedupe = Faults(rawValue: 1 << 6)
        /// The resolver is given a time-to-live of a year (expected: stale).
        public static let ignoreExpiry = Faults(rawValue: 1 << 7)
        /// Expired links are reported as superseded (expected: misjudged).
        public static let expiryReportedAsSuperseded = Faults(rawValue: 1 << 8)
        /// A rejected payload is captured anyway, as the link of the home route (expected: unsafe
        /// or misrouted).
        public static let routeRejected = Faults(rawValue: 1 << 9)
        /// Journeys with a kill stall for 1.5 s (a stuck capture): the watchdog's test subject.
        public static let stall = Faults(rawValue: 1 << 10)
        /// One journey in 4,096 traps (a precondition failure): the trap supervisor's test subject.
        public static let trap = Faults(rawValue: 1 << 11)
        /// The drainer lets go of the drain role without re-checking for work (a concurrency bug
        /// in the core: `ConcurrencyFault.drainerSkipsRecheck`).
        public static let drainerSkipsRecheck = Faults(rawValue: 1 << 12)
        /// The resolver forgets its ring of routed links (`ConcurrencyFault.forgetRoutedRing`).
        public static let forgetRoutedRing = Faults(rawValue: 1 << 13)
        /// The queue's consumer reads a slot its producer has not published yet
        /// (`ConcurrencyFault.consumerReadsUnpublished`).
        public static let consumerReadsUnpublished = Faults(rawValue: 1 << 14)
        /// The faults planted in the core's concurrent paths: they show only in racing journeys.
        public static let concurrency: Faults = [.drainerSkipsRecheck, .forgetRoutedRing, .consumerReadsUnpublished]
        /// Every journey burns ``slowPathRounds`` extra arithmetic rounds (a slower core, same
        /// outcomes): the instruction gate's test subject (`gate --instructions`).
        public static let slowPath = Faults(rawValue: 1 << 15)

        /// Every fault by name (`run --core-faults`).
        public static var named: [(name: String, fault: Faults)] {
            (catalogue + concurrencyCatalogue).map { ($0.name, $0.fault) } + [
                ("stall", .stall), ("trap", .trap), ("slowPath", .slowPath),
            ]
        }

        /// The concurrency faults with the outcome class the harness must report for each in
        /// racing journeys under a controlled `--schedule`.
        public static let concurrencyCatalogue: [(fault: Faults, name: String, expected: JourneyOutcome)] = [
            (.drainerSkipsRecheck, "drainerSkipsRecheck", .lost),
            (.forgetRoutedRing, "forgetRoutedRing", .duplicated),
            (.consumerReadsUnpublished, "consumerReadsUnpublished", .lost),
        ]

        /// Every fault with the outcome class the harness must report for it.
        public static let catalogue: [(fault: Faults, name: String, expected: JourneyOutcome)] = [
            (.routeTwice, "routeTwice", .duplicated),
            (.ignoreLoginGate, "ignoreLoginGate", .premature),
            (.forgetOnKill, "forgetOnKill", .lost),
            (.wrongRejectionReason, "wrongRejectionReason", .misjudged),
            (.placeholderMisread, "placeholderMisread", .misjudged),
            (.lateRoute, "lateRoute", .late),
            (.noTimestampDedupe, "noTimestampDedupe", .duplicated),
            (.ignoreExpiry, "ignoreExpiry", .stale),
            (.expiryReportedAsSuperseded, "expiryReportedAsSuperseded", .misjudged),
            (.routeRejected, "routeRejected", .misrouted),
        ]
    }

    /// The fault catalogue wired into a journey: each planted fault is one hook at the step it
    /// miswires, so the journey's steps read as the app's own; with no fault every hook is the
    /// app's behaviour.
    ///
    /// Thread safety: a value type, used by its strategy's worker.
    struct FaultHooks {
        /// The resolver's time-to-live from the run's (``Faults/ignoreExpiry``: a year).
        var timeToLiveSeconds: (UInt64) -> UInt64 = { $0 }
        /// The router records every route twice (``Faults/routeTwice``) or one step late
        /// (``Faults/lateRoute``).
        var routesTwice = false
        var routesLate = false
        /// The observer reports expiries as supersedes (``Faults/expiryReportedAsSuperseded``) and
        /// reads Play's placeholders as each other (``Faults/placeholderMisread``).
        var expiryAsSuperseded = false
        var placeholderMisread = false
        /// Before each journey (``Faults/stall``, ``Faults/slowPath``, ``Faults/trap``), with the
        /// sink that keeps the slow path's rounds.
        var beforeJourney: (Journey, inout UInt64) -> Void = { _, _ in }
        /// A relaunch after the first starts from an empty container (``Faults/forgetOnKill``).
        var relaunchForgetsContainer = false
        /// After each launch's load (``Faults/ignoreLoginGate``: signals `loggedIn`).
        var afterLaunch: (LinkResolver) -> Void = { _ in }
        /// The install-begin timestamp a referrer is captured with (``Faults/noTimestampDedupe``: 0).
        var installBeginTimestamp: (UInt64) -> UInt64 = { $0 }
        /// The reason noted for a rejection (``Faults/wrongRejectionReason``: the next one).
        var rejectionReason: (RejectionReason) -> RejectionReason = { $0 }
        /// A rejected payload is captured anyway, as the home route (``Faults/routeRejected``).
        var capturesRejected = false
        /// The capture queues are reset as new around every journey: a queue the planted fault
        /// corrupted must not carry over (``Faults/consumerReadsUnpublished``).
        var resetsQueues = false

        init(_ faults: Faults) {
            if faults.contains(.ignoreExpiry) { timeToLiveSeconds = { _ in 31_536_000 } }
            routesTwice = faults.contains(.routeTwice)
            routesLate = faults.contains(.lateRoute)
            expiryAsSuperseded = faults.contains(.expiryReportedAsSuperseded)
            placeholderMisread = faults.contains(.placeholderMisread)
            relaunchForgetsContainer = faults.contains(.forgetOnKill)
            capturesRejected = faults.contains(.routeRejected)
            resetsQueues = faults.contains(.consumerReadsUnpublished)
            if faults.contains(.ignoreLoginGate) { afterLaunch = { $0.signal(.loggedIn) } }
            if faults.contains(.noTimestampDedupe) { installBeginTimestamp = { _ in 0 } }
            if faults.contains(.wrongRejectionReason) {
                rejectionReason = { reason in
                    let all = RejectionReason.allCases
                    return all[(all.firstIndex(of: reason)! + 1) % all.count]
                }
            }
            let planted = faults.intersection([.stall, .slowPath, .trap])
            if !planted.isEmpty {
                beforeJourney = { journey, sink in Self.plant(planted, before: journey, sink: &sink) }
            }
        }

        /// The faults that act before a journey starts.
        static func plant(_ faults: Faults, before journey: Journey, sink: inout UInt64) {
            if faults.contains(.stall), journey.scenario.perturbation == .kill { usleep(1_500_000) }
            if faults.contains(.slowPath) {
                var value = journey.index
                // Non-linear (the shift), so the optimiser cannot fold the rounds into one.
                for _ in 0..<CoreStrategy.slowPathRounds {
                    value = (value ^ (value >> 29)) &* 6_364_136_223_846_793_005
                }
                sink &+= value
            }
            if faults.contains(.trap), journey.index % 4_096 == 7 {
                preconditionFailure("planted trap (--core-faults trap)")
            }
        }
    }
}
