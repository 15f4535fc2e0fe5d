/// The harness's side of the journey protocol, version ``version`` (`Docs/Protocol.md`): the
/// handshake and each journey as the lines the child reads. The document is the rule; this is its
/// one encoder.
///
/// Thread safety: stateless; `Sendable`.
public enum ExecProtocol {
    /// The protocol version the harness speaks (exactly this one).
    public static let version: Int64 = 1

    /// Reasons a child may name in `drop` and claim in its `hello`.
    public static let reasonNames: [(name: String, reason: StrategyObservation.Reasons)] = [
        ("rejected", .rejected), ("organic", .organic), ("notSet", .notSet), ("expired", .expired),
        ("superseded", .superseded), ("crashWindow", .crashWindow),
    ]

    /// One batch of lines: a journey from its start (or its resumption after a real kill) to an
    /// `end` marker.
    public struct Segment: Sendable {
        public var journey: UInt64
        public var bytes: [UInt8]
        /// The steps sent in this segment (bit `seq`): a `route` must name one of them.
        public var sentSteps: UInt64
        /// `--kill signal`: the child is SIGKILLed after answering this segment.
        public var killAfter: Bool
    }

    /// The harness's `hello` line.
    public static func hello(killMode: ExecAdapter.KillMode, ttlSeconds: UInt32) -> [UInt8] {
        var line = Array(#"{"type":"hello","protocol":"#.utf8)
        ProtocolJSON.appendInteger(UInt64(version), to: &line)
        line += Array(#","kill":"#.utf8)
        ProtocolJSON.appendString(killMode.rawValue.utf8, to: &line)
        line += Array(#","ttlSeconds":"#.utf8)
        ProtocolJSON.appendInteger(UInt64(ttlSeconds), to: &line)
        line += Array(#","hosts":[""#.utf8) + Array(LinkCatalog.host.utf8)
        line += Array(
            #""],"payloadKey":"deeplink","loginPrefixes":["/orders/","/account/"],"accountKey":"account"}"#.utf8
        )
        line.append(UInt8(ascii: "\n"))
        return line
    }

    /// The segments of `journey` (one, unless `--kill signal` cuts it at kills and deletions).
    public static func segments(
        of journey: Journey,
        stateDirectory: String,
        killMode: ExecAdapter.KillMode
    ) -> [Segment] {
        var segments: [Segment] = []
        var current = Segment(journey: journey.index, bytes: [], sentSteps: 0, killAfter: false)
        func open(resume: Bool) {
            current.bytes += Array(#"{"type":"journey","journey":"#.utf8)
            ProtocolJSON.appendInteger(journey.index, to: &current.bytes)
            current.bytes += Array(#","stateDir":"#.utf8)
            ProtocolJSON.appendString(stateDirectory.utf8, to: &current.bytes)
            if resume { current.bytes += Array(#","resume":true"#.utf8) }
            current.bytes += Array("}\n".utf8)
        }
        func close(killAfter: Bool) {
            current.bytes += Array(#"{"type":"end","journey":"#.utf8)
            ProtocolJSON.appendInteger(journey.index, to: &current.bytes)
            current.bytes += Array("}\n".utf8)
            current.killAfter = killAfter
            segments.append(current)
            current = Segment(journey: journey.index, bytes: [], sentSteps: 0, killAfter: false)
        }
        func event(_ type: String, step: Int, time: UInt32, extra: (inout [UInt8]) -> Void = { _ in }) {
            current.bytes += Array(#"{"type":""#.utf8) + Array(type.utf8) + Array(#"","seq":"#.utf8)
            ProtocolJSON.appendInteger(UInt64(step), to: &current.bytes)
            current.bytes += Array(#","time":"#.utf8)
            ProtocolJSON.appendInteger(UInt64(time), to: &current.bytes)
            extra(&current.bytes)
            current.bytes += Array("}\n".utf8)
            current.sentSteps |= 1 << UInt64(step)
        }
        open(resume: false)
        var running = false
        // Play's install-begin timestamp: new for every install (as `core` captures it).
        var installBegin = UInt64(journey.endSeconds) &+ 1_000_000
        let events = journey.events.span
        for step in 0..<journey.eventCount {
            let item = events[step]
            let time = item.atSeconds
            switch item.kind {
            case .clipHandoffWrite:
                let url = LinkCatalog.entry(journey.link(slot: item.argument & 1)).url
                event("clipLaunch", step: step, time: time) { appendMember("url", url, to: &$0) }
            case .launch:
                running = true
                event("launch", step: step, time: time)
            case .referrerFetch, .referrerRetry:
                guard running else { break }
                let result = item.referrerResult
                let slot: UInt8 = journey.linkCount >= 2 ? 1 : 0
                event("referrer", step: step, time: time) { line in
                    appendMember("result", result.delivered ? "OK" : result.name, to: &line)
                    line += Array(#","referrer":"#.utf8)
                    if result.delivered {
                        ProtocolJSON.appendString(LinkCatalog.entry(journey.latestLink).referrer.utf8, to: &line)
                    } else {
                        line += Array("null".utf8)
                    }
                    line += Array(#","clickTime":"#.utf8)
                    ProtocolJSON.appendInteger(UInt64(journey.tapTime(slot: slot, before: step)), to: &line)
                    line += Array(#","installBeginTime":"#.utf8)
                    ProtocolJSON.appendInteger(installBegin, to: &line)
                    line += Array((item.kind == .referrerRetry ? #","retry":true"# : #","retry":false"#).utf8)
                }
            case .universalLinkOpen:
                guard running else { break }
                let url = LinkCatalog.entry(journey.link(slot: item.argument & 1)).url
                event("universalLink", step: step, time: time) { appendMember("url", url, to: &$0) }
            case .appReady:
                if running { event("appReady", step: step, time: time) }
            case .loginSucceeded, .sessionRestored:
                if running {
                    let account = LinkCatalog.accounts[Int(item.argument) % LinkCatalog.accounts.count]
                    event("loggedIn", step: step, time: time) { appendMember("account", account, to: &$0) }
                }
            case .logout:
                if running { event("loggedOut", step: step, time: time) }
            case .clockJump:
                if running { event("clock", step: step, time: time) }
            case .kill:
                guard running else { break }
                running = false
                if killMode == .signal {
                    close(killAfter: true)
                    open(resume: true)
                } else {
                    event("kill", step: step, time: time)
                }
            case .appDeleted:
                if running, killMode == .signal {
                    close(killAfter: true)
                    open(resume: true)
                }
                running = false
                installBegin &+= 1
                event("appDeleted", step: step, time: time)
            case .clipDataPurged:
                event("clipDataPurged", step: step, time: time)
            case .crashArmed:
                event("crashArmed", step: step, time: time)
            case .tap, .clipInvoked, .storeVisit, .install, .loginFailed, .clipboardCopy:
                break
            }
        }
        close(killAfter: false)
        return segments
    }

    /// Appends `,"name":"value"`.
    static func appendMember(_ name: String, _ value: String, to line: inout [UInt8]) {
        line += Array(",\"\(name)\":".utf8)
        ProtocolJSON.appendString(value.utf8, to: &line)
    }
}
