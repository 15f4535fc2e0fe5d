/// One way of carrying a link across the install, run over the same journeys as the others. A
/// strategy walks a journey's script event by event and records every router call (with the
/// step that triggered it) in a ``StrategyObservation``; the ``Oracle`` judges it.
///
/// Thread safety: instances are not shared; each worker thread makes its own with
/// ``StrategyKind/make(context:)``.
public protocol Strategy {
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
}

extension Strategy {
    public mutating func finish() {}

    /// Runs `journey` without recording operation latencies.
    public mutating func run(_ journey: Journey, into observation: inout StrategyObservation) {
        var metrics = OperationHistograms()
        run(journey, into: &observation, metrics: &metrics)
    }
}

/// The strategies the harness knows, in report order.
public enum StrategyKind: String, Sendable, Hashable, CaseIterable {
    /// DeepLinkCore: parser, validator, resolver, in-memory handoff store.
    case core
    /// The article's snippet as written (SPEC 4.2).
    case naive
    /// IP + device-attribute matching within a window.
    case fingerprint
    /// The web page copies the link, the app pastes it at first launch.
    case clipboard

    /// Whether this strategy reports DeepLinkCore's decision paths (`coverage.csv`).
    public var reportsDecisionPaths: Bool { self == .core }

    /// Whether this strategy times DeepLinkCore's operations (``OperationHistograms``); the
    /// others' tallies share one empty set instead of owning four histograms per thread.
    public var timesOperations: Bool { self == .core }

    /// Parses a comma-separated list such as `core,naive`; `nil` names the first unknown entry.
    public static func parseList(_ text: String) -> Result<[StrategyKind], StrategyListError> {
        var kinds: [StrategyKind] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let name = part.trimmingSpaces()
            guard let kind = StrategyKind(rawValue: name) else { return .failure(StrategyListError(name: name)) }
            if !kinds.contains(kind) { kinds.append(kind) }
        }
        return kinds.isEmpty ? .failure(StrategyListError(name: text)) : .success(kinds)
    }
}

/// An unknown strategy name in a list.
public struct StrategyListError: Error, Sendable {
    public var name: String
}

extension Substring {
    fileprivate func trimmingSpaces() -> String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}

/// What every strategy is configured with for a run.
///
/// Thread safety: a value type; `Sendable`.
public struct StrategyContext: Sendable {
    public var mix: ScenarioMix
    /// The time-to-live, seconds (the oracle uses the same).
    public var ttlSeconds: UInt32
    /// The fingerprint match window, seconds.
    public var fingerprintWindowSeconds: UInt32
    /// Deliberate miswirings of `core`, for tests of the harness itself (none in a real run).
    public var coreFaults: CoreStrategy.Faults = []

    public init(mix: ScenarioMix) {
        self.mix = mix
        self.ttlSeconds = UInt32(min(mix.ttlSeconds, 31_536_000))
        self.fingerprintWindowSeconds = UInt32(min(mix.fingerprintWindowSeconds, 31_536_000))
    }
}

extension StrategyKind {
    /// A fresh strategy of this kind, for one worker thread.
    public func make(context: StrategyContext) -> any Strategy {
        switch self {
        case .core: CoreStrategy(context: context, faults: context.coreFaults)
        case .naive: NaiveStrategy()
        case .fingerprint: FingerprintStrategy(context: context)
        case .clipboard: ClipboardStrategy(context: context)
        }
    }
}
