import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// An implementation outside the harness (`exec:NAME`), driven over the journey protocol
/// (`Docs/Protocol.md`) through one child process per worker thread. Each chunk of journeys goes
/// down the pipe in one batch (``prepare(_:)``); the child's `route` and `drop` answers become the
/// journey's ``StrategyObservation``, which the same ``Oracle`` judges. Nothing of the oracle's
/// expectation reaches the child.
///
/// A child that crashes, hangs, writes invalid JSON or breaks a protocol rule fails that journey
/// (`trapped`, or `hung` for a hang: ``StrategyObservation/AuditFinding/childFailed``,
/// ``StrategyObservation/AuditFinding/childHung``), is killed and replaced, and the run goes on;
/// ``ExecAdapter/errors`` counts what happened.
///
/// Thread safety: one instance per worker thread (it owns its child).
package struct ExecStrategy: Strategy {
    package let kind: StrategyKind
    /// What the child's last handshake claimed.
    package private(set) var distinctions: StrategyObservation.Reasons = []
    /// The protocol version the child's last handshake answered with.
    package private(set) var protocolVersion = ExecProtocol.version
    let adapter: ExecAdapter?
    let worker: Int
    let workerDirectory: String
    var child: ExecChild?
    /// Under `kill: signal`, the next child, started and sent its `hello` while the current one
    /// works: a kill then costs the kill, not a program's start-up.
    var spare: ExecChild?
    /// The batch ``prepare(_:)`` ran: journey indices and their observations, consumed in order.
    var preparedIndices: [UInt64] = []
    var prepared: [StrategyObservation] = []
    /// Per prepared journey: its router has declined a route call (``Journey/routerNotReady``).
    var declined: [Bool] = []
    var cursor = 0
    var failuresInARow = 0
    /// After this many failed journeys in a row the worker stops starting children.
    static let failureLimit = 8
    /// The least time a child gets to answer `hello`.
    static let handshakeTimeoutNanos: UInt64 = 10_000_000_000
    static let gaveUpMessage = "too many failed journeys in a row; no more children started"

    package init(name: String, context: StrategyContext) {
        kind = .exec(name)
        let adapter = context.execAdapters[name]
        let worker = adapter?.claimWorker() ?? 0
        self.adapter = adapter
        self.worker = worker
        workerDirectory = adapter.map { "\($0.stateRoot)/\($0.name)/w\(worker)" } ?? ""
        if !workerDirectory.isEmpty {
            try? FileManager.default.createDirectory(atPath: workerDirectory, withIntermediateDirectories: true)
        }
    }

    package mutating func finish() {
        child?.terminate()
        child = nil
        spare?.terminate()
        spare = nil
        removeWorkerDirectory()
    }

    /// Removes this worker's state directory, and its adapter's and the state root when no other
    /// worker still uses them (`rmdir` fails on a directory that is not empty): a run leaves no
    /// empty `state/NAME/wN` behind.
    func removeWorkerDirectory() {
        guard let adapter, !workerDirectory.isEmpty else { return }
        try? FileManager.default.removeItem(atPath: workerDirectory)
        rmdir("\(adapter.stateRoot)/\(adapter.name)")
        rmdir(adapter.stateRoot)
    }

    package mutating func run(
        _ journey: Journey,
        into observation: inout StrategyObservation,
        metrics: inout OperationHistograms
    ) {
        if cursor >= preparedIndices.count || preparedIndices[cursor] != journey.index {
            // Not part of a prepared batch (a caller that runs journeys one by one).
            prepare([journey])
        }
        observation = prepared[cursor]
        cursor += 1
    }

    package mutating func prepare(_ journeys: [Journey]) {
        preparedIndices = journeys.map(\.index)
        prepared = [StrategyObservation](repeating: StrategyObservation(), count: journeys.count)
        declined = [Bool](repeating: false, count: journeys.count)
        cursor = 0
        guard let adapter else {
            for position in journeys.indices { prepared[position].auditFinding = .childFailed }
            return
        }
        var segments: [(position: Int, segment: ExecProtocol.Segment)] = []
        for (position, journey) in journeys.enumerated() {
            let directory = "\(workerDirectory)/\(journey.index)"
            for segment in ExecProtocol.segments(of: journey, stateDirectory: directory, killMode: adapter.killMode) {
                segments.append((position, segment))
            }
        }
        var answered = 0  // segments fully answered
        var sent = 0  // segments written to the current child
        var deadline = Runner.monotonicNanos() &+ adapter.timeoutNanos
        while answered < segments.count {
            let position = segments[answered].position
            let journey = journeys[position]
            if failuresInARow >= Self.failureLimit {
                fail(position, journey: journey.index, .gaveUp, Self.gaveUpMessage, adapter: adapter)
                answered = nextJourney(after: answered, in: segments)
                continue
            }
            if child == nil {
                sent = answered
                if let problem = startChild(adapter: adapter) {
                    fail(position, journey: journey.index, .handshake, problem, adapter: adapter)
                    answered = nextJourney(after: answered, in: segments)
                    continue
                }
                deadline = Runner.monotonicNanos() &+ adapter.timeoutNanos
            }
            if !supports(journey) {
                // A protocol-1 child has no keys to judge signed links by: not sent, not judged.
                prepared[position].auditFinding = .unsupported
                adapter.unsupported.add(1, ordering: .relaxed)
                answered = nextJourney(after: answered, in: segments)
                sent = max(sent, answered)
                continue
            }
            // Write ahead, but never past a segment after which the child is killed, nor into a
            // journey this child cannot be sent.
            while sent < segments.count, sent == answered || !segments[sent - 1].segment.killAfter {
                let next = segments[sent]
                guard supports(journeys[next.position]) else { break }
                let pendingDecline = journeys[next.position].routerNotReady && !declined[next.position]
                child!.send(next.segment.resumeBytes(routerNotReady: pendingDecline))
                sent += 1
            }
            let failure: (ExecErrorTally.Kind, String)?
            switch child!.nextLine(deadlineNanos: deadline) {
            case .timedOut:
                failure = (.hung, "no done for journey \(journey.index) within \(adapter.timeoutNanos / 1_000_000) ms")
            case .closed:
                failure = (.crashed, "the child exited or closed stdout during journey \(journey.index)")
            case .line(let line):
                switch apply(
                    line,
                    segment: segments[answered].segment,
                    journey: journey,
                    declined: &declined[position],
                    to: &prepared[position]
                ) {
                case .continuing:
                    failure = nil
                case .done:
                    failure = nil
                    deadline = Runner.monotonicNanos() &+ adapter.timeoutNanos
                    let finished = segments[answered].segment
                    answered += 1
                    if finished.killAfter {
                        child?.terminate()
                        child = nil
                    } else if answered == segments.count || segments[answered].position != position {
                        failuresInARow = 0
                        removeStateDirectory(journey: journey.index)
                    }
                case .failed(let kind, let message):
                    failure = (kind, message)
                }
            }
            if let (kind, message) = failure {
                fail(position, journey: journey.index, kind, message, adapter: adapter)
                child?.terminate()
                child = nil
                answered = nextJourney(after: answered, in: segments)
            }
        }
    }

    /// Whether the current child's protocol version can carry `journey`.
    func supports(_ journey: Journey) -> Bool {
        protocolVersion >= 2 || !ExecProtocol.needsVersion2(journey)
    }

    /// The first segment of the journey after the one `segment` belongs to.
    func nextJourney(after segment: Int, in segments: [(position: Int, segment: ExecProtocol.Segment)]) -> Int {
        var next = segment
        while next < segments.count, segments[next].position == segments[segment].position { next += 1 }
        return next
    }

    mutating func fail(
        _ position: Int,
        journey: UInt64,
        _ kind: ExecErrorTally.Kind,
        _ message: String,
        adapter: ExecAdapter
    ) {
        prepared[position] = StrategyObservation()
        prepared[position].auditFinding = kind == .hung ? .childHung : .childFailed
        failuresInARow += 1
        let log = adapter.logPath(worker: worker)
        adapter.errors.withLock { $0.record(kind, journey: journey, message: message + " (child stderr: \(log))") }
        removeStateDirectory(journey: journey)
    }

    /// Starts a child and runs the handshake; returns what went wrong, or nil.
    mutating func startChild(adapter: ExecAdapter) -> String? {
        let started: ExecChild
        if let ready = spare {
            started = ready
            spare = nil
        } else {
            switch Self.spawnGreeted(adapter: adapter, worker: worker) {
            case .success(let child): started = child
            case .failure(let error): return error.message
            }
        }
        // Start-up (a JVM, a Dart VM) may take longer than a journey.
        let handshakeNanos = max(adapter.timeoutNanos, Self.handshakeTimeoutNanos)
        let deadline = Runner.monotonicNanos() &+ handshakeNanos
        switch started.nextLine(deadlineNanos: deadline) {
        case .timedOut:
            started.terminate()
            return "no hello within \(handshakeNanos / 1_000_000) ms"
        case .closed:
            started.terminate()
            return "the child exited before its hello"
        case .line(let line):
            switch Self.parseHello(line) {
            case .success(let hello):
                distinctions = hello.reasons
                protocolVersion = hello.version
                child = started
                if adapter.killMode == .signal {
                    spare = try? Self.spawnGreeted(adapter: adapter, worker: worker).get()
                }
                return nil
            case .failure(let problem):
                started.terminate()
                return problem.message
            }
        }
    }

    /// A new child of `adapter`, sent its `hello` (its answer is read by ``startChild(adapter:)``).
    static func spawnGreeted(adapter: ExecAdapter, worker: Int) -> Result<ExecChild, ExecChild.SpawnError> {
        do throws(ExecChild.SpawnError) {
            let child = try ExecChild.spawn(command: adapter.command, logPath: adapter.logPath(worker: worker))
            child.send(ExecProtocol.hello(killMode: adapter.killMode, ttlSeconds: adapter.ttlSeconds))
            child.pushQueuedInput()
            return .success(child)
        } catch {
            return .failure(error)
        }
    }

    /// A problem with a child's `hello`, in words.
    struct HelloProblem: Error {
        var message: String
    }

    /// What a child's `hello` answered: its protocol version and the reasons it claims.
    struct Hello {
        var version: Int64
        var reasons: StrategyObservation.Reasons
    }

    /// The version and reasons a child's `hello` claims, or what is wrong with it.
    static func parseHello(_ line: [UInt8]) -> Result<Hello, HelloProblem> {
        let object: ProtocolJSON
        do {
            object = try ProtocolJSON.parse(line)
        } catch {
            return .failure(HelloProblem(message: "hello: \(error)"))
        }
        guard object.string("type") == "hello" else {
            return .failure(HelloProblem(message: "the first line must be the child's hello, found \(quoted(line))"))
        }
        guard let version = object.integer("protocol"), ExecProtocol.versions.contains(version) else {
            let versions = ExecProtocol.versions
            return .failure(
                HelloProblem(
                    message:
                        "hello: protocol must be \(versions.lowerBound) to \(versions.upperBound), found \(quoted(line))"
                )
            )
        }
        var reasons: StrategyObservation.Reasons = []
        if let value = object["reasons"] {
            guard case .strings(let names) = value else {
                return .failure(HelloProblem(message: "hello: reasons must be an array of strings"))
            }
            for name in names {
                let text = String(decoding: name, as: UTF8.self)
                guard let reason = ExecProtocol.reasonNames.first(where: { $0.name == text })?.reason else {
                    return .failure(HelloProblem(message: "hello: unknown reason \(quoted(name))"))
                }
                reasons.insert(reason)
            }
        }
        return .success(Hello(version: version, reasons: reasons))
    }

    /// What one answer line did.
    enum Applied {
        case continuing
        case done
        case failed(ExecErrorTally.Kind, String)
    }

    /// Applies one answer line of the journey in progress to its observation. With protocol 2, the
    /// journey's first route call is the one its router declines (`routerNotReady`): that call
    /// did not navigate, so it is not a route.
    func apply(
        _ line: [UInt8],
        segment: ExecProtocol.Segment,
        journey: Journey,
        declined: inout Bool,
        to observation: inout StrategyObservation
    ) -> Applied {
        let object: ProtocolJSON
        do {
            object = try ProtocolJSON.parse(line)
        } catch {
            return .failed(.invalidJSON, "journey \(journey.index): \(error) in \(Self.quoted(line))")
        }
        func breach(_ rule: String) -> Applied {
            .failed(.protocolBreach, "journey \(journey.index): \(rule): \(Self.quoted(line))")
        }
        guard let type = object.bytes("type") else { return breach("an answer needs a string type") }
        guard object.integer("journey").map({ UInt64(bitPattern: $0) }) == journey.index,
            object.integer("journey")! >= 0
        else {
            return breach("journey must be \(journey.index), the journey in progress")
        }
        switch String(decoding: type, as: UTF8.self) {
        case "done":
            return .done
        case "route":
            guard let seq = object.integer("seq"), seq >= 0, seq < 64, segment.sentSteps & (1 << UInt64(seq)) != 0
            else {
                return breach("seq must be a step of this journey that was sent")
            }
            guard let link = object.bytes("link") else { return breach("a route needs a string link") }
            if journey.routerNotReady, !declined, protocolVersion >= 2 {
                declined = true
                return .continuing
            }
            var id = link.withUnsafeBytes { CoreStrategy.catalogID(of: $0, candidates: journey.links) }
            if id == LinkCatalog.unknownID { id = Self.payloadID(of: link, journey: journey) }
            if id == LinkCatalog.unknownID { observation.auditFinding = .unknownLink }
            observation.route(link: id, step: Int(seq))
            return .continuing
        case "drop":
            guard let name = object.string("reason"),
                let reason = ExecProtocol.reasonNames.first(where: { $0.name == name })?.reason
            else {
                return breach("reason must be one of " + ExecProtocol.reasonNames.map(\.name).joined(separator: ", "))
            }
            if reason == .rejected {
                guard let rejection = object.string("rejection"),
                    let value = RejectionReason.allCases.first(where: { $0.name == rejection })
                else {
                    return breach(
                        "a rejected drop needs rejection, one of "
                            + RejectionReason.allCases.map(\.name).joined(separator: ", ")
                    )
                }
                observation.reject(value)
            } else {
                observation.reported.insert(reason)
            }
            return .continuing
        default:
            return breach("type must be route, drop or done")
        }
    }

    /// The journey's own tapped link whose URL path is `link`, when that link must not route (a
    /// forged signed link, a hostile payload): a program that routes it is judged `unsafe`, not
    /// `misrouted` to an unknown link. `LinkCatalog.unknownID` otherwise.
    static func payloadID(of link: [UInt8], journey: Journey) -> UInt8 {
        let prefix = Array("https://\(LinkCatalog.host)".utf8)
        for slot: UInt8 in 0..<min(journey.linkCount, 2) {
            let id = journey.link(slot: slot)
            let url = Array(LinkCatalog.entry(id).url.utf8)
            if !LinkCatalog.facts(id).isRoutable, url.count == prefix.count + link.count, url.starts(with: prefix),
                url[prefix.count...].elementsEqual(link)
            {
                return id
            }
        }
        return LinkCatalog.unknownID
    }

    /// Removes a journey's state directory if the child made one.
    func removeStateDirectory(journey: UInt64) {
        let path = "\(workerDirectory)/\(journey)"
        // One system call when the child never created it (the common case for fast adapters).
        if rmdir(path) == 0 || errno == ENOENT { return }
        try? FileManager.default.removeItem(atPath: path)
    }

    /// A line for an error message: at most 200 bytes, invalid UTF-8 replaced.
    static func quoted(_ line: [UInt8]) -> String {
        let text = String(decoding: line.prefix(200), as: UTF8.self)
        return "'" + text + (line.count > 200 ? "…'" : "'")
    }
}
