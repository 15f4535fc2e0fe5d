import DeepLinkHarness

/// `ArgumentParser` and the CLI front end: any argument list parses or fails with a named
/// `CLIError`; a successful parse agrees with a reference parser; `deeplink-bench inspect` with
/// those arguments exits 0 or 2 (with a one-line `error:` message) and never crashes.
///
/// Input: the arguments, separated by NUL bytes.
enum ArgumentsFuzzer {
    static let options: [OptionSpec] = [
        .flag("--quiet", help: "q"),
        .flag("--jsonl", help: "j"),
        OptionSpec("--seed", value: "n", help: "s"),
        OptionSpec("--max-fields", value: "n", help: "m"),
        OptionSpec("--rate", value: "x", help: "r"),
        OptionSpec("--", value: "odd", help: "an option literally named --"),
    ]

    static func run(_ input: UnsafeRawBufferPointer) {
        var cursor = FuzzInput(input)
        let arguments = cursor.rest().split(separator: 0, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        let expected = reference(arguments)
        do {
            let parsed = try ArgumentParser.parse(arguments, options: options)
            guard case .success(let reference) = expected else {
                return fuzzCheck(false, "parsed \(arguments) but the reference refused: \(expected)")
            }
            fuzzCheck(parsed == reference, "parse differs from the reference for \(arguments)")
            _ = try? parsed.integer("--seed", in: 0...1_000)
            _ = try? parsed.unsigned("--seed")
            _ = try? parsed.double("--rate", in: 0...1)
            _ = try? parsed.integer("--max-fields", in: Int.min...Int.max)
        } catch {
            fuzzCheck(expected == .failure(error), "refused with \(error), reference: \(expected)")
            fuzzCheck(!error.message.isEmpty && !error.message.contains("\n"), "message is not one line")
        }
        checkInspect(Array(arguments.prefix(8)))
    }

    /// The documented grammar, written out plainly.
    static func reference(_ arguments: [String]) -> Result<ParsedArguments, CLIError> {
        var result = ParsedArguments()
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
            guard let spec = options.first(where: { $0.name == name }) else { return .failure(.unknownOption(name)) }
            if spec.valueName == nil {
                if let inline {
                    return .failure(.invalidValue(option: name, value: inline, expected: "no value (a flag)"))
                }
                result.flags.insert(name)
            } else if let inline {
                result.values[name] = inline
            } else {
                guard let value = remaining.popFirst() else { return .failure(.missingValue(option: name)) }
                result.values[name] = value
            }
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
