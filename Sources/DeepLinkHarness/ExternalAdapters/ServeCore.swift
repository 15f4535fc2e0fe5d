import DeepLinkCore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// DeepLinkCore behind the journey protocol (`deeplink-bench serve-core`, `Docs/Protocol.md`): the
/// reference adapter. It sees only protocol lines, as an app would see its events: the App Clip
/// writes its URL into the container; each `launch` relaunches a ``LinkResolver`` over the
/// container; referrers and universal links are captured, referrers with Play's install-begin
/// timestamp. Every capture goes through the core's public calls (``ExampleAppCapture``, shared
/// with ``CoreStrategy``); app events become `signal`s; the resolver's decisions become `drop`
/// answers and its router calls `route` answers.
///
/// The container: with `kill: message`, DeepLinkCore's ``InMemoryHandoffStore`` with its crash model
/// (it survives `kill` messages as a directory would, and models `crashArmed`); with
/// `kill: signal`, a ``FileHandoffStore`` in the journey's `stateDir`, so a SIGKILL really tests it
/// (`crashArmed` is not modelled there: a file store cannot be told to die mid-consume, so its
/// `hello` does not claim crashWindow).
///
/// Thread safety: one instance, used by the thread that reads stdin.
final class ServeCore {
    let capture = ExampleAppCapture()
    let clock = ManualClock()
    let process = SimulatedProcess()
    let memoryStore: InMemoryHandoffStore
    let answers: AnswerSink
    var configuration: LinkResolver.Configuration
    var killMode = ExecAdapter.KillMode.message
    /// The current journey's resolver and container.
    var resolver: LinkResolver
    var store: any HandoffStore
    var journey: UInt64 = 0
    var containerExists = false
    var running = false
    var referrerDeliveries: UInt64 = 0
    var clipWrites: UInt64 = 0
    var universalLinks: UInt64 = 0

    init(output: @escaping ([UInt8]) -> Void) {
        answers = AnswerSink(output: output)
        configuration = LinkResolver.Configuration(
            policy: ExampleApp.policy,
            timeToLiveNanos: 86_400 * 1_000_000_000,
            pendingCapacity: 2,
            queueCapacity: 2,
            referrerAccountKey: ExampleApp.referrerAccountKey,
            signing: ExampleApp.signing
        )
        memoryStore = InMemoryHandoffStore(capacity: 4, consumedCapacity: 8, process: process)
        store = memoryStore
        resolver = LinkResolver(
            configuration: configuration,
            store: memoryStore,
            router: answers,
            observer: answers,
            clock: clock,
            process: process
        )
    }

    /// Handles one line; returns false after a line the protocol does not allow (already reported
    /// on stderr).
    func handle(_ line: [UInt8]) -> Bool {
        guard let message = try? ProtocolJSON.parse(line), let type = message.string("type") else {
            FileDescriptorWriter.writeAll("serve-core: not a protocol line: \(ExecStrategy.quoted(line))\n", to: 2)
            return false
        }
        let time = UInt64(max(0, message.integer("time") ?? 0))
        clock.set(nanos: time &* 1_000_000_000)
        answers.seq.store(Int(message.integer("seq") ?? 0), ordering: .relaxed)
        switch type {
        case "hello": hello(message)
        case "journey": start(message)
        case "end":
            process.kill()
            answers.done(journey: journey)
        case "clipLaunch":
            guard let url = message.bytes("url") else { break }
            let rejection = url.withUnsafeBytes {
                capture.clipWrite(url: $0, into: store, atNanos: time &* 1_000_000_000, id: clipWrites &+ 1)
            }
            // A URL that validated opens the container and counts as a write, signed or not.
            if rejection.map(ExampleAppCapture.isSignatureRejection) ?? true {
                containerExists = true
                clipWrites &+= 1
            }
            answer(rejection)
        case "launch":
            resolver.relaunch()
            if killMode == .message { memoryStore.relaunchInPlace() }
            process.restart()
            containerExists = true
            running = true
            _ = try? resolver.launch()
        case "referrer":
            guard running, message.string("result") == "OK", let referrer = message.bytes("referrer") else { break }
            let click = UInt64(max(0, message.integer("clickTime") ?? 0))
            let installBegin = UInt64(max(0, message.integer("installBeginTime") ?? 0))
            let verdict = referrer.withUnsafeBytes {
                capture.referrer(
                    $0,
                    into: resolver,
                    clickNanos: click &* 1_000_000_000,
                    id: 100 &+ referrerDeliveries &+ 1,
                    installBeginTimestamp: installBegin
                )
            }
            answer(verdict)
        case "universalLink":
            guard running, let url = message.bytes("url") else { break }
            let rejection = url.withUnsafeBytes {
                capture.link($0, into: resolver, atNanos: time &* 1_000_000_000, id: 200 &+ universalLinks &+ 1)
            }
            if rejection.map(ExampleAppCapture.isSignatureRejection) ?? true { universalLinks &+= 1 }
            answer(rejection)
        case "appReady": if running { resolver.signal(.appReady) }
        case "loggedIn":
            guard running else { break }
            // A session that names its account opens that account's bound links too.
            if let name = message.bytes("account"),
                let account = try? name.withUnsafeBytes({ try AccountID(validating: $0) })
            {
                resolver.signal(.loggedInAs(account))
            } else {
                resolver.signal(.loggedIn)
            }
        case "loggedOut": if running { resolver.signal(.loggedOut) }
        case "clock": if running { resolver.tick() }
        case "kill":
            if running { resolver.simulateKill() }
            running = false
        case "appDeleted":
            if running { resolver.simulateKill() }
            running = false
            wipeContainer()
        case "clipDataPurged":
            wipeContainer()
        case "crashArmed":
            if containerExists, killMode == .message { memoryStore.armKill(at: KillPoint(.after, .markConsumed)) }
        default:
            break  // unknown types from the harness are ignored (Docs/Protocol.md)
        }
        // A declined route: the app's screen appears within this step and it signals again.
        if answers.takeRetry(), running { resolver.signal(.appReady) }
        return true
    }

    func hello(_ message: ProtocolJSON) {
        if let ttl = message.integer("ttlSeconds"), ttl > 0, ttl <= 31_536_000 {
            configuration.timeToLiveNanos = UInt64(ttl) * 1_000_000_000
        }
        killMode = message.string("kill") == "signal" ? .signal : .message
        resolver = makeResolver(store: memoryStore)
        var line = Array(#"{"type":"hello","protocol":2,"name":"serve-core (DeepLinkCore)","reasons":["#.utf8)
        // A file store cannot be told to die mid-consume: under `kill: signal` `crashArmed` is not
        // modelled, so crashWindow is not claimed (the interrupted route is judged as a route).
        let reasons = ExecProtocol.reasonNames.filter { killMode == .message || $0.name != "crashWindow" }
        line += Array(reasons.map { "\"\($0.name)\"" }.joined(separator: ",").utf8)
        line += Array("]}\n".utf8)
        answers.output(line)
    }

    func makeResolver(store: any HandoffStore) -> LinkResolver {
        self.store = store
        return LinkResolver(
            configuration: configuration,
            store: store,
            router: answers,
            observer: answers,
            clock: clock,
            process: process
        )
    }

    /// A new journey (or, with `resume`, the same journey in a new process).
    func start(_ message: ProtocolJSON) {
        journey = UInt64(bitPattern: message.integer("journey") ?? 0)
        answers.journey = journey
        answers.declineNext = message["routerNotReady"] == .bool(true)
        running = false
        process.restart()
        if killMode == .signal, let directory = message.string("stateDir") {
            // The container lives in the directory; a resumed journey finds what it kept.
            if let fileStore = try? FileHandoffStore(directory: directory) {
                resolver = makeResolver(store: fileStore)
            }
            containerExists = true
        } else {
            memoryStore.reset()
            containerExists = false
        }
        if message["resume"] != .bool(true) {
            referrerDeliveries = 0
            clipWrites = 0
            universalLinks = 0
        }
    }

    func wipeContainer() {
        if killMode == .signal, let fileStore = store as? FileHandoffStore {
            let directory = fileStore.directory
            try? FileManager.default.removeItem(atPath: directory)
            if let fresh = try? FileHandoffStore(directory: directory) { resolver = makeResolver(store: fresh) }
        } else {
            memoryStore.reset()
        }
        containerExists = false
    }

    /// Answers a capture's rejection, if any.
    func answer(_ rejection: LinkRejection?) {
        guard let rejection else { return }
        answers.drop(rejection: .link(rejection))
    }

    /// Answers what a referrer held when it was not captured; a delivery that got as far as the
    /// signature check counts (the next one gets a new id).
    func answer(_ verdict: ReferrerVerdict) {
        switch verdict {
        case .link: referrerDeliveries &+= 1
        case .organic: answers.drop(reason: "organic")
        case .notSet: answers.drop(reason: "notSet")
        case .noPayload: break
        case .rejected(let rejection):
            if ExampleAppCapture.isSignatureRejection(rejection) { referrerDeliveries &+= 1 }
            answer(rejection)
        case .error(let error): answers.drop(rejection: RejectionReason(error))
        }
    }
}
