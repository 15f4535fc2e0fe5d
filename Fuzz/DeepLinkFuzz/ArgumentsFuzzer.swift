import DeepLinkHarness

/// `ArgumentParser` and the CLI front end: any argument list parses or fails with a named
/// `CLIError`; a successful parse agrees with a reference parser; `deeplink-bench inspect` with
/// those arguments exits 0 or 2 (with a one-line `error:` message) and never crashes.
///
/// Input: the arguments, separated by NUL bytes.
enum ArgumentsFuzzer {
    static let quiet = Flag("--quiet", help: "q")
    static let jsonl = Flag("--jsonl", help: "j")
    static let seed = Option("--seed", value: "n", as: .unsigned, help: "s")
    static let maxFields = Option("--max-fields", value: "n", as: .integer(in: Int.min...Int.max), help: "m")
    static let rate = Option("--rate", value: "x", as: .number(in: 0...1), help: "r")
    static let odd = Option("--", value: "odd", as: .text, help: "an option literally named --")
    static let options: [any DeclaredOption] = [quiet, jsonl, seed, maxFields, rate, odd]

    /// What the reference parser makes of a command line: each option's texts and the positionals.
    struct Parsed: Equatable {
        var texts: [String: [String]] = [:]
        var positionals: [String] = []
    }

    static func run(_ input: UnsafeRawBufferPointer) {
        var cursor = FuzzInput(input)
        let arguments = cursor.rest().split(separator: 0, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        let expected = reference(arguments)
        do {
            let parsed = try ArgumentParser.parse(arguments, options: options.map(\.spec))
            guard case .success(let reference) = expected else {
                return fuzzCheck(false, "parsed \(arguments) but the reference refused: \(expected)")
            }
            var actual = Parsed(positionals: parsed.positionals)
            for option in options where parsed.contains(option) {
                actual.texts[option.spec.name] = parsed.texts(option)
            }
            fuzzCheck(actual == reference, "parse differs from the reference for \(arguments)")
            fuzzCheck(parsed[seed] == reference.texts[seed.name]?.last.flatMap(unsigned), "--seed's value")
            fuzzCheck(parsed[quiet] == (reference.texts[quiet.name] != nil), "--quiet's value")
        } catch {
            fuzzCheck(expected == .failure(error), "refused with \(error), reference: \(expected)")
            fuzzCheck(!error.message.isEmpty && !error.message.contains("\n"), "message is not one line")
        }
        checkInspect(Array(arguments.prefix(8)))
    }

    static func unsigned(_ text: String) -> UInt64? { UInt64(String(text.unicodeScalars.filter { $0 != "_" })) }

    /// Why the reference refuses `text` as the value of `name`, or nil when it takes it.
    static func refusal(_ name: String, _ text: String) -> String? {
        switch name {
        case seed.name: unsigned(text) == nil ? "an unsigned 64-bit integer" : nil
        case maxFields.name:
            Int(String(text.unicodeScalars.filter { $0 != "_" })) == nil ? "an integer in \(Int.min...Int.max)" : nil
        case rate.name:
            Double(text).map { $0.isFinite && (0...1).contains($0) } == true ? nil : "a number in \(0.0...1.0)"
        default: nil
        }
    }

    /// The documented grammar, written out plainly.
    static func reference(_ arguments: [String]) -> Result<Parsed, CLIError> {
        var result = Parsed()
        var remaining = arguments[...]
        var optionsEnded = false
        while let argument = remaining.popFirst() {
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                result.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            let inline = parts.count == 2 ? String(parts[1]) : nil
            guard let spec = options.map(\.spec).first(where: { $0.name == name }) else {
                return .failure(.unknownOption(name))
            }
            let text: String
            if spec.valueName == nil {
                if let inline {
                    return .failure(.invalidValue(option: name, value: inline, expected: "no value (a flag)"))
                }
                result.texts[name] = []
                continue
            } else if let inline {
                text = inline
            } else {
                guard let value = remaining.popFirst() else { return .failure(.missingValue(option: name)) }
                text = value
            }
            if let expected = refusal(name, text) {
                return .failure(.invalidValue(option: name, value: text, expected: expected))
            }
            result.texts[name, default: []].append(text)
        }
        return .success(result)
    }

    /// `deeplink-bench inspect <arguments>` with empty standard input.
    static func checkInspect(_ arguments: [String]) {
        var out = ""
        var err = ""
        let io = CommandIO(stdout: { out += $0 }, stderr: { err += $0 })
        let status = DeepLinkBench.main(arguments: ["inspect"] + arguments, io: io)
        switch status {
        case 0:
            fuzzCheck(err.isEmpty, "exit 0 with an error message")
        case 2:
            fuzzCheck(err.hasPrefix("error: inspect: ") && err.hasSuffix("\n"), "exit 2 without an error line")
            fuzzCheck(err.dropLast().contains("\n") == false, "the error message spans lines")
        default:
            fuzzCheck(false, "inspect exited \(status)")
        }
    }
}
