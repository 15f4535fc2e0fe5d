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
