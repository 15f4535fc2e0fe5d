import DeepLinkCore

/// The harness's side of the journey protocol, version ``version`` (`Docs/Protocol.md`): the
/// handshake and each journey as the lines the child reads. The document is the rule; this is its
/// one encoder.
///
/// Thread safety: stateless; `Sendable`.
package enum ExecProtocol {
    /// The newest protocol version the harness speaks (`hello`'s `maxProtocol`).
    package static let version: Int64 = 2
    /// Every version a child may answer with. A version-1 child is judged without the journeys
    /// it cannot judge itself (``needsVersion2(_:)``). `hello`'s `protocol` stays the oldest, which
    /// programs written for version 1 check.
    package static let versions: ClosedRange<Int64> = 1...version

    /// Reasons a child may name in `drop` and claim in its `hello`.
    package static let reasonNames: [(name: String, reason: StrategyObservation.Reasons)] = [
        ("rejected", .rejected), ("organic", .organic), ("notSet", .notSet), ("expired", .expired),
        ("superseded", .superseded), ("crashWindow", .crashWindow),
    ]

    /// Whether judging `journey` needs what only protocol 2's `hello` carries (the signing keys
    /// and prefixes): it taps the signed link or a forgery of it.
    package static func needsVersion2(_ journey: Journey) -> Bool {
        for slot: UInt8 in 0..<min(journey.linkCount, 2) where signedLinks.contains(journey.link(slot: slot)) {
            return true
        }
        return false
    }

    /// The catalog's signed link and its forgeries.
    static let signedLinks = [LinkCatalog.signedLink] + LinkCatalog.forgedLinks

    /// The gate policy as `hello`'s `gate` member: one string per rule of ``ExampleApp/policy``,
    /// the canonical prefix and then the events it needs besides `appReady`, space-separated
    /// (`"/orders loggedIn"`, `"/product"`).
    package static var gateRules: [String] {
        ExampleApp.policy.rules.map { rule in
            ([rule.prefix.string] + eventNames(rule.requires)).joined(separator: " ")
        }
    }

    /// The prefixes whose links need `loggedIn` (protocol 1's `loginPrefixes`, from the same policy).
    package static var loginPrefixes: [String] {
        ExampleApp.policy.rules.filter { $0.requires.contains(.loggedIn) }.map(\.prefix.string)
    }

    /// The example app's verification keys as `hello`'s `signingKeys`: `id:secret` with the
    /// secret in lowercase hex.
    package static var signingKeys: [String] {
        ExampleApp.signingKeyList.map { key in
            key.id + ":"
                + String(
                    decoding: key.secret.flatMap { [hexDigits[Int($0 >> 4)], hexDigits[Int($0 & 15)]] },
                    as: UTF8.self
                )
        }
    }

    static let hexDigits = Array("0123456789abcdef".utf8)

    /// The names of the gate events in `events`, `appReady` left out (every route needs it).
    static func eventNames(_ events: GateEvents) -> [String] {
        events.contains(.loggedIn) ? ["loggedIn"] : []
    }

    /// One batch of lines: a journey from its start (or its resumption after a real kill) to an
    /// `end` marker.
    package struct Segment: Sendable {
        package var journey: UInt64
        package var bytes: [UInt8]
        /// The steps sent in this segment (bit `seq`): a `route` must name one of them.
        package var sentSteps: UInt64
        /// `--kill signal`: the child is SIGKILLed after answering this segment.
        package var killAfter: Bool
        /// A resumption whose `journey` line takes `"routerNotReady":true` at this byte offset
        /// while the journey's declined route is still to come (``resumeBytes(routerNotReady:)``);
        /// nil for a journey's first segment, whose line carries the member when it applies.
        package var routerNotReadyOffset: Int?

        /// The bytes to send: with the `routerNotReady` member on a resumption's `journey` line
        /// when the router still declines the journey's next route call.
        package func resumeBytes(routerNotReady: Bool) -> [UInt8] {
            guard routerNotReady, let offset = routerNotReadyOffset else { return bytes }
            return Array(bytes[..<offset]) + Array(ExecProtocol.routerNotReadyMember.utf8) + Array(bytes[offset...])
        }
    }

    /// The `journey` line's member for a router that declines the journey's first route call.
    static let routerNotReadyMember = #","routerNotReady":true"#

    /// The harness's `hello` line.
    package static func hello(killMode: ExecAdapter.KillMode, ttlSeconds: UInt32) -> [UInt8] {
        var line = Array(#"{"type":"hello","protocol":"#.utf8)
        ProtocolJSON.appendInteger(UInt64(versions.lowerBound), to: &line)
        line += Array(#","maxProtocol":"#.utf8)
        ProtocolJSON.appendInteger(UInt64(version), to: &line)
        line += Array(#","kill":"#.utf8)
        ProtocolJSON.appendString(killMode.rawValue.utf8, to: &line)
        line += Array(#","ttlSeconds":"#.utf8)
        ProtocolJSON.appendInteger(UInt64(ttlSeconds), to: &line)
        appendStrings("hosts", ExampleApp.allowedHosts, to: &line)
        appendMember("payloadKey", "deeplink", to: &line)
        appendStrings("loginPrefixes", loginPrefixes, to: &line)
        appendMember("accountKey", ExampleApp.referrerAccountKey, to: &line)
        appendStrings("gate", gateRules, to: &line)
        appendStrings("gateDefault", eventNames(ExampleApp.policy.defaultRequirements), to: &line)
        appendStrings("signedPrefixes", ExampleApp.signing.prefixes, to: &line)
        appendStrings("signingKeys", signingKeys, to: &line)
        line += Array("}\n".utf8)
        return line
    }

    /// The segments of `journey` (one, unless `--kill signal` cuts it at kills and deletions).
    package static func segments(
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
            if resume {
                current.bytes += Array(#","resume":true"#.utf8)
                if journey.routerNotReady { current.routerNotReadyOffset = current.bytes.count }
            } else if journey.routerNotReady {
                current.bytes += Array(routerNotReadyMember.utf8)
            }
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

    /// Appends `,"name":["value",...]`.
    static func appendStrings(_ name: String, _ values: [String], to line: inout [UInt8]) {
        line += Array(",\"\(name)\":[".utf8)
        for (index, value) in values.enumerated() {
            if index > 0 { line.append(UInt8(ascii: ",")) }
            ProtocolJSON.appendString(value.utf8, to: &line)
        }
        line.append(UInt8(ascii: "]"))
    }

    /// Appends `,"name":"value"`.
    static func appendMember(_ name: String, _ value: String, to line: inout [UInt8]) {
        line += Array(",\"\(name)\":".utf8)
        ProtocolJSON.appendString(value.utf8, to: &line)
    }
}
