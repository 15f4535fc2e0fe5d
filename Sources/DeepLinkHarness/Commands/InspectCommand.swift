import DeepLinkCore
import DeepLinkLinks
import Foundation

/// `deeplink-bench inspect`: parses and validates Install Referrer strings and shows what the core
/// makes of them.
///
/// - `inspect '<referrer>'…` prints a readable breakdown per referrer: every field raw and decoded,
///   the payload, and the verdict (link, organic, not set, no payload, rejected with its reason, or
///   error with the limit that was hit).
/// - `inspect --jsonl` reads referrers from standard input, one per line (the bytes up to `\n`, or
///   `\r\n`, any bytes at all; a line over `--max-input-bytes` is never buffered whole), and writes
///   one JSON object per line, flushed before the next line is awaited:
///   `{"fields":[["name","value"],…],"payload":…,"link":…,"verdict":…,"reason":…,"requires":…}`.
///   `requires` lists the gate events the link needs under the policy (the example app's, or
///   `--login-prefixes`), in bit order (`["appReady","loggedIn"]`), or is `null` when nothing is
///   routed. `link` is the canonical form the router gets. Names and values
///   are decoded per WHATWG with U+FFFD for invalid UTF-8, so for valid UTF-8 input `fields` equals
///   Python's `urllib.parse.parse_qsl(line, keep_blank_values=True)`. `fields` lists the input's
///   own fields (before undoing double encoding); `payload` is the decoded payload the verdict was
///   made from. A line the parser refuses (a limit) yields `"verdict":"error"` with its reason and
///   empty `fields`, and the next line is processed as usual.
///
/// Thread safety: a command runs on one thread; it holds only immutable values.
package struct InspectCommand: BenchCommand {
    package static let configuration = CommandConfiguration(
        name: "inspect",
        abstract: "Parse and validate Install Referrer strings and show the verdict.",
        usage: "inspect [options] <referrer>...\n       deeplink-bench inspect --jsonl [options] < referrers.txt",
        discussion: """
            Without --jsonl, prints each referrer's fields (raw and decoded), payload and verdict.
            With --jsonl, reads one referrer per line (LF or CRLF) from standard input and writes one JSON
            object per line, flushed before the next line is awaited:
            {"fields":[[name,value],...],"payload":...,"link":...,"verdict":...,"reason":...,"requires":...}
            where verdict is link, organic, notSet, noPayload, rejected or error, link is the canonical
            link and requires the gate events it needs under the route policy (["appReady","loggedIn"]),
            null when nothing is routed. A line longer than
            --max-input-bytes is answered "error"/"inputTooLong" without being read into memory.
            Exit 2 when standard input cannot be read (e.g. it is a directory) or standard output
            cannot be written.
            """,
        options: [
            jsonl, payloadKey, maxInputBytes, maxFields, allowedHosts,
            Option.routes.described("Comma-separated route prefixes; other paths are unknownRoute."),
            loginPrefixes, verifyKeyFile, signedRoutes,
        ]
    )

    static let jsonl = Flag("--jsonl", help: "Read referrers from standard input, one per line; write JSON lines.")
    static let payloadKey = Option(
        "--payload-key",
        value: "name",
        as: .text,
        help: "The field carrying the deep link (default: deeplink)."
    )
    static let maxInputBytes = Option(
        "--max-input-bytes",
        value: "n",
        as: .integer(in: 0...ReferrerParser.Configuration.inputBytesCeiling),
        help: "Refuse longer referrers (default: 4096, at most \(ReferrerParser.Configuration.inputBytesCeiling))."
    )
    static let maxFields = Option(
        "--max-fields",
        value: "n",
        as: .integer(in: 0...1_000_000),
        help: "Refuse referrers with more fields (default: 64)."
    )
    static let allowedHosts = Option(
        "--allowed-hosts",
        value: "list",
        as: ValueParser { list($0) },
        help: "Comma-separated hosts whose https links are accepted (default: nerdy.pro,www.nerdy.pro)."
    )
    static let loginPrefixes = Option(
        "--login-prefixes",
        value: "list",
        as: ValueParser(policy),
        help: "Comma-separated prefixes that need loggedIn (default: the example app's /orders,/account)."
    )
    static let verifyKeyFile = Option(
        "--verify-key-file",
        value: "file",
        as: .text,
        help: "Verify signed links with this key file (badSignature, unknownKey, expiredSignature, ...)."
    )
    static let signedRoutes = Option(
        "--signed-routes",
        value: "list",
        as: ValueParser { list($0) },
        help: "With --verify-key-file: prefixes whose links must be signed (default: /, every link)."
    )

    /// What to read.
    enum Input: Equatable {
        /// The referrers given on the command line, shown readably.
        case arguments([String])
        /// Lines of standard input, answered as JSON lines.
        case jsonLines
    }

    let input: Input
    let parser: ReferrerParser
    let validator: LinkValidator
    /// What a link needs before it is routed (`requires`).
    let policy: RoutePolicy
    /// Checks signatures (`--verify-key-file`) against the wall clock; `nil`: none.
    let verifier: SignedLinkVerifier?

    package init(arguments: ParsedArguments) throws(CLIError) {
        var configuration = ReferrerParser.Configuration()
        if let key = arguments[Self.payloadKey] { configuration.payloadKey = key }
        if let bytes = arguments[Self.maxInputBytes] { configuration.maxInputBytes = bytes }
        if let fields = arguments[Self.maxFields] { configuration.maxFields = fields }
        if arguments[Self.jsonl] {
            if let extra = arguments.positionals.first { throw .unexpectedArgument(extra) }
            input = .jsonLines
        } else {
            guard !arguments.positionals.isEmpty else { throw .missingArgument("<referrer> (or --jsonl)") }
            input = .arguments(arguments.positionals)
        }
        parser = ReferrerParser(configuration: configuration)
        var validation = ExampleApp.validatorConfiguration
        if let hosts = arguments[Self.allowedHosts] { validation.allowedHosts = hosts }
        if let routes = arguments[.routes] { validation.routes = routes }
        validator = LinkValidator(configuration: validation)
        policy = arguments[Self.loginPrefixes] ?? ExampleApp.policy
        verifier = try Self.verifier(arguments)
    }

    /// The policy where each listed prefix needs `loggedIn` (`--login-prefixes`).
    private static func policy(from list: String) throws(OptionValueError) -> RoutePolicy {
        do {
            return try RoutePolicy(rules: Self.list(list).map { (prefix: $0, requires: .loggedIn) })
        } catch {
            let detail =
                switch error {
                case .invalidPrefix(let prefix):
                    "'\(prefix)' is not a path the link validator accepts (no query, dot segment or encoded delimiter)"
                case .duplicatePrefix(let prefix): "'\(prefix)' names a rule twice"
                }
            throw .expected("comma-separated path prefixes such as /orders,/account (\(detail))")
        }
    }

    /// The names of the events in `events`, in bit order: `appReady`, `loggedIn`, `custom0`, ….
    static func eventNames(_ events: GateEvents) -> [String] {
        var names: [String] = []
        if events.contains(.appReady) { names.append("appReady") }
        if events.contains(.loggedIn) { names.append("loggedIn") }
        for id in 0..<AppEvent.Custom.capacity {
            if let event = AppEvent.Custom(id: id), events.contains(.custom(event)) { names.append("custom\(id)") }
        }
        return names
    }

    /// The signature verifier `--verify-key-file` and `--signed-routes` ask for.
    private static func verifier(_ arguments: ParsedArguments) throws(CLIError) -> SignedLinkVerifier? {
        guard let file = arguments[verifyKeyFile] else {
            if arguments.contains(signedRoutes) {
                throw .invalidInput("\(signedRoutes.name) needs \(verifyKeyFile.name) FILE")
            }
            return nil
        }
        let routes = arguments[signedRoutes] ?? ["/"]
        do {
            let authenticator = try HMACSHA256Authenticator(keyFile: file)
            do {
                return try SignedLinkVerifier(requiringSignatureUnder: routes, authenticator: authenticator)
            } catch {
                throw CLIError.invalidValue(
                    option: signedRoutes.name,
                    value: routes.joined(separator: ","),
                    expected: "distinct canonical paths starting with '/'"
                )
            }
        } catch let error as SigningKeyError {
            throw .invalidInput("\(error.name): \(error.message)")
        } catch let error as CLIError {
            throw error
        } catch {
            throw .invalidInput("\(error)")
        }
    }

    /// The verdict for a parsed referrer, its link's signature checked when a verifier is set, and
    /// the link when the verdict is `link`.
    private func verdict(for parsed: ParsedReferrer) -> (verdict: ReferrerVerdict, link: DeepLink?) {
        var link = DeepLink(validated: "/")!
        let verdict = parser.verdict(for: parsed, validator: validator, into: &link)
        guard case .link = verdict else { return (verdict, nil) }
        guard let verifier else { return (verdict, link) }
        let now = UInt64(max(0, Date().timeIntervalSince1970))
        if case .rejected(let rejection) = verifier.check(link, nowSeconds: now) { return (.rejected(rejection), nil) }
        return (verdict, link)
    }

    /// The non-empty items of a comma-separated list.
    private static func list(_ text: String) -> [String] {
        text.split(separator: ",", omittingEmptySubsequences: true).map(String.init)
    }

    package mutating func run(io: CommandIO) throws -> Int32 {
        switch input {
        case .arguments(let referrers):
            for (index, referrer) in referrers.enumerated() {
                if index > 0 { io.out("\n") }
                io.out(describe(Array(referrer.utf8)))
            }
        case .jsonLines:
            let limit = parser.configuration.maxInputBytes
            do {
                while let line = try io.readLine(maxBytes: limit) {
                    switch line {
                    case .complete(let referrer): io.out(jsonLine(for: referrer) + "\n")
                    case .tooLong(let length):
                        io.out(Self.jsonLine(for: .inputTooLong(length: length, limit: limit)) + "\n")
                    }
                    // Nobody gets the answers any more; `finish` reports why.
                    if io.stdoutFailure != nil { break }
                }
            } catch {
                throw CLIError.invalidInput(
                    "cannot read standard input: \(error). Give --jsonl referrers one per line on standard input, "
                        + "e.g. deeplink-bench inspect --jsonl < referrers.txt"
                )
            }
        }
        return 0
    }

    /// The JSON object (one line, no newline) for one referrer.
    func jsonLine(for referrer: [UInt8]) -> String {
        let result = referrer.withUnsafeBytes { bytes in
            parser.withReferrer(in: bytes) { parsed in
                var json = "{\"fields\":["
                var first = true
                for field in parsed.fields {
                    json += first ? "[" : ",["
                    first = false
                    JSONString.append(field.decodedName, to: &json)
                    json += ","
                    JSONString.append(field.decodedValue, to: &json)
                    json += "]"
                }
                let (verdict, link) = verdict(for: parsed)
                json += "],\"payload\":" + JSONString.quotedOrNull(parsed.payload?.decodedValue)
                json += Self.jsonTail(verdict, link: link, requires: link.map { policy.requirements(for: $0) })
                return json
            }
        }
        switch result {
        case .success(let json): return json
        case .failure(let error): return Self.jsonLine(for: error)
        }
    }

    /// The JSON object of a referrer the parser refused (a limit).
    static func jsonLine(for error: ReferrerError) -> String {
        "{\"fields\":[],\"payload\":null" + jsonTail(.error(error), link: nil, requires: nil)
    }

    private static func jsonTail(_ verdict: ReferrerVerdict, link: DeepLink?, requires: GateEvents?) -> String {
        var tail =
            ",\"link\":" + JSONString.quotedOrNull(link?.string) + ",\"verdict\":"
            + JSONString.quoted(verdict.name) + ",\"reason\":" + JSONString.quotedOrNull(verdict.reason)
        guard let requires else { return tail + ",\"requires\":null}" }
        tail += ",\"requires\":[" + eventNames(requires).map(JSONString.quoted).joined(separator: ",") + "]}"
        return tail
    }

    /// The readable breakdown of one referrer (several lines, ending with a newline).
    func describe(_ referrer: [UInt8]) -> String {
        var text = "referrer \(Self.quotedBytes(referrer)) (\(referrer.count) bytes)\n"
        let result = referrer.withUnsafeBytes { bytes in
            parser.withReferrer(in: bytes) { parsed in
                var text = Self.describeFields(parsed.fields, title: "fields")
                if parsed.isDoubleEncoded {
                    text += "double-encoded: decoded once to "
                    text += Self.quotedBytes(Array(parsed.effectiveFields.bytes)) + " and parsed again\n"
                    text += Self.describeFields(parsed.effectiveFields, title: "fields after decoding")
                }
                let key = JSONString.quoted(parser.configuration.payloadKey)
                if let payload = parsed.payload {
                    text += "payload (\(key)) \(JSONString.quoted(payload.decodedValue))\n"
                } else {
                    text += "payload (\(key)) none\n"
                }
                let (verdict, link) = verdict(for: parsed)
                text += "verdict " + Self.describe(verdict, link: link) + "\n"
                if let link {
                    text += "requires " + Self.eventNames(policy.requirements(for: link)).joined(separator: ", ") + "\n"
                }
                return text
            }
        }
        switch result {
        case .success(let breakdown): text += breakdown
        case .failure(let error): text += "verdict " + Self.describe(.error(error), link: nil) + "\n"
        }
        return text
    }

    private static func describeFields(_ fields: ReferrerFields, title: String) -> String {
        var text = "\(title) (\(fields.count)):\n"
        for (index, field) in fields.enumerated() {
            text += "  \(index + 1). name \(JSONString.quoted(field.decodedName))"
            text += " value \(JSONString.quoted(field.decodedValue))\n"
            text += "     raw \(quotedBytes(Array(field.rawField)))\n"
        }
        return text
    }

    private static func describe(_ verdict: ReferrerVerdict, link: DeepLink?) -> String {
        switch verdict {
        case .link: "link \(JSONString.quoted(link?.string ?? ""))"
        case .organic: "organic (Play placeholder: organic install)"
        case .notSet: "notSet (Play placeholder: referrer not set)"
        case .noPayload: "noPayload (no payload field)"
        case .rejected(let rejection): "rejected (\(rejection))"
        case .error(let error): "error (\(error))"
        }
    }

    /// Bytes shown as a quoted string: invalid UTF-8 as U+FFFD, control characters escaped.
    private static func quotedBytes(_ bytes: [UInt8]) -> String {
        JSONString.quoted(String(decoding: bytes, as: UTF8.self))
    }
}
