/// The strategies the harness knows, in report order, and the implementations outside it that
/// `run --exec NAME=COMMAND` drives over the journey protocol (`exec:NAME`, `Docs/Protocol.md`).
/// ``rawValue`` is the report name (`core`, `exec:mine`): reports are keyed by it.
package enum StrategyKind: Sendable, Hashable, CaseIterable {
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
    package static var allCases: [StrategyKind] { [.core, .naive, .fingerprint, .clipboard] }

    /// The report name: `core`, …, `exec:NAME`.
    package var rawValue: String {
        switch self {
        case .core: "core"
        case .naive: "naive"
        case .fingerprint: "fingerprint"
        case .clipboard: "clipboard"
        case .exec(let name): Self.execPrefix + name
        }
    }

    /// The kind named `rawValue`; `exec:NAME` needs a valid ``ExecAdapter`` name.
    package init?(rawValue: String) {
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
    package var racesOnTwoThreads: Bool {
        if case .exec = self { return false }
        return true
    }

    /// Whether this strategy reports DeepLinkCore's decision paths (`coverage.csv`).
    package var reportsDecisionPaths: Bool { self == .core }

    /// Whether this strategy times DeepLinkCore's operations (``OperationHistograms``); the
    /// others' tallies share one empty set instead of owning four histograms per thread.
    package var timesOperations: Bool { self == .core }

    /// Parses a comma-separated list such as `core,naive`; `nil` names the first unknown entry.
    package static func parseList(_ text: String) -> Result<[StrategyKind], StrategyListError> {
        var kinds: [StrategyKind] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let name = part.trimmingSpaces()
            guard let kind = StrategyKind(rawValue: name) else { return .failure(StrategyListError(name: name)) }
            if !kinds.contains(kind) { kinds.append(kind) }
        }
        return kinds.isEmpty ? .failure(StrategyListError(name: text)) : .success(kinds)
    }
}

extension StrategyKind {
    /// A fresh strategy of this kind, for one worker thread.
    package func make(context: StrategyContext) -> any Strategy {
        switch self {
        case .core: CoreStrategy(context: context, faults: context.coreFaults)
        case .naive: NaiveStrategy(context: context)
        case .fingerprint: FingerprintStrategy(context: context)
        case .clipboard: ClipboardStrategy(context: context)
        case .exec(let name): ExecStrategy(name: name, context: context)
        }
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
