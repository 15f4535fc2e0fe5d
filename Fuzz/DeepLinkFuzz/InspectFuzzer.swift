import DeepLinkCore
import DeepLinkCoreTestSupport
import DeepLinkHarness
import Foundation

/// `deeplink-bench inspect --jsonl`: every input line yields exactly one line of valid JSON whose
/// fields, payload, link, verdict and reason agree with the parser and the validator.
///
/// Input: one byte picks the options, the rest is standard input (lines end at `\n` or `\r\n`;
/// the last may have no terminator).
enum InspectFuzzer {
    static let verdictNames: Set<String> = ["link", "organic", "notSet", "noPayload", "rejected", "error"]

    static func run(_ input: UnsafeRawBufferPointer) {
        var cursor = FuzzInput(input)
        let options = cursor.byte()
        var arguments = ["inspect", "--jsonl"]
        var configuration = ReferrerParser.Configuration()
        if options & 1 != 0 {
            configuration.maxFields = Int(options >> 4)
            arguments += ["--max-fields", String(configuration.maxFields)]
        }
        if options & 2 != 0 {
            configuration.maxInputBytes = Int(options >> 2) * 4
            arguments += ["--max-input-bytes=\(configuration.maxInputBytes)"]
        }
        var validation = ExampleApp.validatorConfiguration
        if options & 4 != 0 {
            validation.routes = ["/product/"]
            arguments += ["--routes", "/product/"]
        }
        let parser = ReferrerParser(configuration: configuration)
        let validator = LinkValidator(configuration: validation)

        let stdin = Array(cursor.rest())
        var lines = stdin.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
        // What follows the last LF is a line only when not empty; a CR before an LF is line end.
        let unterminated = lines.removeLast()
        lines = lines.map { $0.last == UInt8(ascii: "\r") ? Array($0.dropLast()) : $0 }
        if !unterminated.isEmpty { lines.append(unterminated) }
        var out = ""
        var err = ""
        let io = CommandIO(stdout: { out += $0 }, stderr: { err += $0 }, stdin: LineReader(bytes: stdin))
        let status = DeepLinkBench.main(arguments: arguments, io: io)
        fuzzCheck(status == 0 && err.isEmpty, "inspect --jsonl failed: \(status) \(err)")
        fuzzCheck(out.isEmpty || out.hasSuffix("\n"), "output does not end with a newline")
        let outputLines = out.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        fuzzCheck(outputLines.count == lines.count, "\(lines.count) lines in, \(outputLines.count) out")
        for (line, json) in zip(lines, outputLines) {
            check(Array(json.utf8), for: line, parser: parser, validator: validator)
        }
    }

    static func check(_ json: [UInt8], for line: [UInt8], parser: ReferrerParser, validator: LinkValidator) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json)) as? [String: Any] else {
            return fuzzCheck(false, "not a JSON object: \(String(decoding: json, as: UTF8.self))")
        }
        fuzzCheck(
            Set(object.keys) == ["fields", "payload", "link", "verdict", "reason", "requires"],
            "unexpected keys \(object.keys.sorted())"
        )
        let verdict = line.withUnsafeBytes { parser.verdictRead($0, validator: validator) }
        fuzzCheck(object["verdict"] as? String == verdict.name, "verdict differs from the parser's \(verdict)")
        fuzzCheck(verdictNames.contains(verdict.name), "unknown verdict name")
        fuzzCheck(optionalString(object["link"]) == .some(verdict.link?.string), "link differs")
        fuzzCheck(optionalString(object["reason"]) == .some(verdict.reason), "reason differs")
        if let link = verdict.link {
            let requires = ExampleApp.policy.requirements(for: link)
            var expected = ["appReady"]
            if requires.contains(.loggedIn) { expected.append("loggedIn") }
            fuzzCheck(requires.subtracting([.appReady, .loggedIn]).isEmpty, "the example policy names other events")
            fuzzCheck(object["requires"] as? [String] == expected, "requires differs from the policy's")
        } else {
            fuzzCheck(object["requires"] is NSNull, "requires is not null without a link")
        }

        guard let fields = object["fields"] as? [[String]] else { return fuzzCheck(false, "fields is not [[String]]") }
        if case .error = verdict.verdict {
            fuzzCheck(fields.isEmpty && object["payload"] is NSNull, "an error line lists fields or a payload")
            return
        }
        let expected = Reference.fields(line).map { field in
            [
                String(decoding: Reference.formDecoded(field.name), as: UTF8.self),
                String(decoding: Reference.formDecoded(field.value), as: UTF8.self),
            ]
        }
        fuzzCheck(fields == expected, "fields differ: \(fields) vs \(expected)")
        let key = Array(parser.configuration.payloadKey.utf8)
        let effectiveBytes = Reference.isDoubleEncoded(line) ? Reference.formDecoded(line) : line
        let payload = Reference.fields(effectiveBytes).first { Reference.formDecoded($0.name) == key }
        let expectedPayload = payload.map { String(decoding: Reference.formDecoded($0.value), as: UTF8.self) }
        fuzzCheck(optionalString(object["payload"]) == .some(expectedPayload), "payload differs")
    }

    /// `.some(nil)` for JSON `null`, `.some(text)` for a string, `nil` for anything else.
    static func optionalString(_ value: Any?) -> String?? {
        if value is NSNull { return .some(nil) }
        if let text = value as? String { return .some(text) }
        return nil
    }
}
