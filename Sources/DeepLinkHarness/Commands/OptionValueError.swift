/// Why an option's text is not a value of its type. The parser adds the option's name and turns it
/// into a ``CLIError``.
package enum OptionValueError: Error, Sendable {
    /// `invalid value 'TEXT' for '--name': expected EXPECTED`.
    case expected(String)
    /// One item of a list is wrong: `invalid value 'ITEM' for '--name': expected EXPECTED`.
    case item(String, expected: String)
    /// A whole sentence from the value's own parser (``ScenarioMix``).
    case explained(String)
    /// What follows the option's name in a sentence: `--threshold` + ` core.p99: unknown metric`.
    case afterName(String)

    func cliError(option: String, text: String) -> CLIError {
        switch self {
        case .expected(let expected): .invalidValue(option: option, value: text, expected: expected)
        case .item(let item, let expected): .invalidValue(option: option, value: item, expected: expected)
        case .explained(let message): .invalidInput(message)
        case .afterName(let rest): .invalidInput("\(option) \(rest)")
        }
    }
}
