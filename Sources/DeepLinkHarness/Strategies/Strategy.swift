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
    /// Called with each chunk of journeys before they are run one by one, in that order, so a
    /// strategy behind a pipe (``ExecStrategy``) can send them in one batch.
    mutating func prepare(_ journeys: [Journey])
}

extension Strategy {
    public mutating func finish() {}
    public mutating func prepare(_ journeys: [Journey]) {}

    /// Runs `journey` without recording operation latencies.
    public mutating func run(_ journey: Journey, into observation: inout StrategyObservation) {
        var metrics = OperationHistograms()
        run(journey, into: &observation, metrics: &metrics)
    }
}

/// The strategies the harness knows, in report order, and the implementations outside it that
/// `run --exec NAME=COMMAND` drives over the journey protocol (`exec:NAME`, `Docs/Protocol.md`).
/// ``rawValue`` is the report name (`core`, `exec:mine`): reports are keyed by it.
public enum StrategyKind: Sendable, Hashable, CaseIterable {
    /// DeepLinkCore: parser, validator, resolver, in-memory handoff store.
    case core
    /// The article's snippet as written (SPEC 4.2).
    case naive
    /// IP + device-attribute matching within a window.
    case fingerprint
    /// The web page copies the link, the app pastes it at first launch.
    case clipboard
    /// A child process speaking the journey protocol, by its `--exec` name.
    case exec(String)

    /// The built-in strategies (exec strategies exist only when a run names them).
    public static var allCases: [StrategyKind] { [.core, .naive, .fingerprint, .clipboard] }

    /// The report name: `core`, …, `exec:NAME`.
    public var rawValue: String {
        switch self {
        case .core: "core"
        case .naive: "naive"
        case .fingerprint: "fingerprint"
        case .clipboard: "clipboard"
        case .exec(let name): Self.execPrefix + name
        }
    }

    /// The kind named `rawValue`; `exec:NAME` needs a valid ``ExecAdapter`` name.
    public init?(rawValue: String) {
        if rawValue.hasPrefix(Self.execPrefix) {
            let name = String(rawValue.dropFirst(Self.execPrefix.count))
            guard ExecAdapter.isValidName(name) else { return nil }
            self = .exec(name)
            return
        }
        guard let kind = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = kind
    }

    static let execPrefix = "exec:"

    /// Whether this strategy meets a racing journey's raced events from two threads at once: every
    /// built-in one does; an `exec:` child reads one pipe, which delivers them in order
    /// (Docs/Protocol.md, *Racing journeys*).
    public var racesOnTwoThreads: Bool {
        if case .exec = self { return false }
        return true
    }

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
    /// How racing journeys are interleaved (`--schedule`, Docs/Scheduling.md).
    public var schedule: ScheduleMode = .default
    /// The child processes `exec:NAME` strategies drive (`run --exec`), by name.
    public var execAdapters: [String: ExecAdapter] = [:]
    /// The run's worker threads (a race's own partner threads spin between races only with a core
    /// to spare).
    var workerThreads = 1
    /// The worker paired with this one to partner each other's controlled races (``RaceDesk``).
    var racePeering: RacePeering?

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
        case .naive: NaiveStrategy(context: context)
        case .fingerprint: FingerprintStrategy(context: context)
        case .clipboard: ClipboardStrategy(context: context)
        case .exec(let name): ExecStrategy(name: name, context: context)
        }
    }
}
