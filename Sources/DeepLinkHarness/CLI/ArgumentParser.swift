/// A usage error on the command line. Every case names what was wrong; the CLI prints
/// ``message`` on one line and exits with status 2.
package enum CLIError: Error, Equatable, Sendable {
    case unknownCommand(String)
    case unknownOption(String)
    case missingValue(option: String)
    case invalidValue(option: String, value: String, expected: String)
    case unexpectedArgument(String)
    case missingArgument(String)
    case invalidInput(String)

    /// A one-line description for the user. Control characters that came from the command line (a
    /// newline inside a quoted argument) are shown escaped (`\n`), so the message stays one line.
    package var message: String {
        var line = ""
        for scalar in _unescapedMessage.unicodeScalars {
            let isControl = scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
            if isControl { line += scalar.escaped(asASCII: true) } else { line.unicodeScalars.append(scalar) }
        }
        return line
    }

    private var _unescapedMessage: String {
        switch self {
        case .unknownCommand(let name): "unknown command '\(name)' (see --help)"
        case .unknownOption(let name): "unknown option '\(name)' (see --help)"
        case .missingValue(let option): "option '\(option)' needs a value"
        case .invalidValue(let option, let value, let expected):
            "invalid value '\(value)' for '\(option)': expected \(expected)"
        case .unexpectedArgument(let argument): "unexpected argument '\(argument)' (see --help)"
        case .missingArgument(let name): "missing argument: \(name)"
        case .invalidInput(let detail): detail
        }
    }
}

/// One option a command accepts: a flag (`--quiet`) when `valueName` is nil, otherwise an option
/// taking a value (`--seed 42` or `--seed=42`).
package struct OptionSpec: Sendable {
    package var name: String
    package var valueName: String?
    package var help: String

    package init(_ name: String, value valueName: String? = nil, help: String) {
        self.name = name
        self.valueName = valueName
        self.help = help
    }

    package static func flag(_ name: String, help: String) -> OptionSpec { OptionSpec(name, help: help) }
}

/// The result of parsing a command line against a list of ``OptionSpec``s.
package struct ParsedArguments: Sendable, Equatable {
    package var flags: Set<String> = []
    package var values: [String: String] = [:]
    /// Every value of each option, in command-line order (``values`` keeps the last one), for
    /// options that may be given more than once (`run --exec`).
    package var repeated: [String: [String]] = [:]
    package var positionals: [String] = []

    package init() {}

    package func has(_ flag: String) -> Bool { flags.contains(flag) }

    package func string(_ option: String) -> String? { values[option] }

    /// Every value given for `option`, in order (empty when absent).
    package func strings(_ option: String) -> [String] { repeated[option] ?? [] }

    /// An integer option, range-checked; `nil` when absent.
    package func integer(_ option: String, in range: ClosedRange<Int>) throws(CLIError) -> Int? {
        guard let text = values[option] else { return nil }
        let cleaned = text.replacingUnderscores()
        guard let value = Int(cleaned), range.contains(value) else {
            throw .invalidValue(option: option, value: text, expected: "an integer in \(range)")
        }
        return value
    }

    /// An unsigned 64-bit option; `nil` when absent.
    package func unsigned(_ option: String) throws(CLIError) -> UInt64? {
        guard let text = values[option] else { return nil }
        guard let value = UInt64(text.replacingUnderscores()) else {
            throw .invalidValue(option: option, value: text, expected: "an unsigned 64-bit integer")
        }
        return value
    }

    /// A floating-point option, range-checked; `nil` when absent.
    package func double(_ option: String, in range: ClosedRange<Double>) throws(CLIError) -> Double? {
        guard let text = values[option] else { return nil }
        guard let value = Double(text), value.isFinite, range.contains(value) else {
            throw .invalidValue(option: option, value: text, expected: "a number in \(range)")
        }
        return value
    }
}

extension String {
    fileprivate func replacingUnderscores() -> String {
        String(unicodeScalars.filter { $0 != "_" })
    }
}

/// A deliberately small command-line parser: long options only, `--name value` or
/// `--name=value`, flags, positionals, and `--` to end options.
package enum ArgumentParser {
    package static func parse(_ arguments: [String], options: [OptionSpec]) throws(CLIError) -> ParsedArguments {
        var result = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                result.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let spec = options.first(where: { $0.name == name }) else { throw .unknownOption(name) }
            if spec.valueName == nil {
                guard inlineValue == nil else {
                    throw .invalidValue(option: name, value: inlineValue ?? "", expected: "no value (a flag)")
                }
                result.flags.insert(name)
            } else if let inlineValue {
                result.values[name] = inlineValue
                result.repeated[name, default: []].append(inlineValue)
            } else {
                guard index < arguments.count else { throw .missingValue(option: name) }
                result.values[name] = arguments[index]
                result.repeated[name, default: []].append(arguments[index])
                index += 1
            }
        }
        return result
    }
}
