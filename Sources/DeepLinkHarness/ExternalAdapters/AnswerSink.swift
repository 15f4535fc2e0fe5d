import DeepLinkCore
import Synchronization

/// The router and observer of ``ServeCore``'s resolvers: writes each route and each decision the
/// protocol has a reason for as an answer line.
///
/// Thread safety: serve-core delivers every input from one thread, so the resolver calls these
/// on that thread; the `Locked` only satisfies `Sendable` honestly.
final class AnswerSink: Router, ResolverObserver, CrashWindowObserver {
    let seq = Atomic<Int>(0)
    let write: @Sendable ([UInt8]) -> Void
    nonisolated(unsafe) var journey: UInt64 = 0
    /// The harness's router declines the next route call (`routerNotReady`, protocol 2).
    nonisolated(unsafe) var declineNext = false
    /// A declined route whose retry signal the app has not sent yet.
    nonisolated(unsafe) var retryDue = false

    init(output: @escaping ([UInt8]) -> Void) {
        let unchecked = UncheckedOutput(output)
        write = { unchecked.call($0) }
    }

    func output(_ bytes: [UInt8]) { write(bytes) }

    /// Answers `route` and reports the link handled: a protocol child's navigation cannot
    /// decline (the protocol has no answer for it).
    func route(_ pending: PendingLink) -> RouteResult {
        let link = pending.link
        var line = Array(#"{"type":"route","journey":"#.utf8)
        ProtocolJSON.appendInteger(journey, to: &line)
        line += Array(#","seq":"#.utf8)
        ProtocolJSON.appendInteger(UInt64(max(0, seq.load(ordering: .relaxed))), to: &line)
        line += Array(#","link":"#.utf8)
        link.withUTF8Bytes { ProtocolJSON.appendString($0, to: &line) }
        line += Array("}\n".utf8)
        write(line)
        guard !declineNext else {
            declineNext = false
            retryDue = true
            return .notReady
        }
        return .handled
    }

    /// Whether a declined route waits for the app's next signal (and clears it).
    func takeRetry() -> Bool {
        defer { retryDue = false }
        return retryDue
    }

    func resolverDecided(_ decision: ResolverDecision) {
        switch decision {
        case .superseded: drop(reason: "superseded")
        case .expired: drop(reason: "expired")
        default: break
        }
    }

    func resolverKilledInCrashWindow(_ link: PendingLink) { drop(reason: "crashWindow") }

    var interests: ResolverDecision.Kinds { [.superseded, .expired] }

    func drop(reason: String, rejection: RejectionReason? = nil) {
        var line = Array(#"{"type":"drop","journey":"#.utf8)
        ProtocolJSON.appendInteger(journey, to: &line)
        line += Array(#","reason":""#.utf8) + Array(reason.utf8) + [UInt8(ascii: "\"")]
        if let rejection { line += Array(#","rejection":""#.utf8) + Array(rejection.name.utf8) + [UInt8(ascii: "\"")] }
        line += Array("}\n".utf8)
        write(line)
    }

    func drop(rejection: RejectionReason) { drop(reason: "rejected", rejection: rejection) }

    func done(journey: UInt64) {
        var line = Array(#"{"type":"done","journey":"#.utf8)
        ProtocolJSON.appendInteger(journey, to: &line)
        line += Array("}\n".utf8)
        write(line)
    }
}

/// A closure used only from serve-core's one thread.
private final class UncheckedOutput: @unchecked Sendable {
    let call: ([UInt8]) -> Void
    init(_ call: @escaping ([UInt8]) -> Void) { self.call = call }
}
