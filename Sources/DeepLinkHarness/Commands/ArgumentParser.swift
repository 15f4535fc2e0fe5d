/// A deliberately small command-line parser: long options only, `--name value` or
/// `--name=value`, flags, positionals, and `--` to end options. Each value is parsed by its
/// option's declaration, so a bad value is a usage error here, naming the option.
package enum ArgumentParser {
    package static func parse(_ arguments: [String], options: [OptionSpec]) throws(CLIError) -> ParsedArguments {
        var result = ParsedArguments(accepted: Set(options.map(\.name)))
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
            let text: String
            if spec.valueName == nil {
                guard inlineValue == nil else {
                    throw .invalidValue(option: name, value: inlineValue ?? "", expected: "no value (a flag)")
                }
                result.given[name] = []
                text = ""
            } else if let inlineValue {
                text = inlineValue
                result.given[name, default: []].append(text)
            } else {
                guard index < arguments.count else { throw .missingValue(option: name) }
                text = arguments[index]
                index += 1
                result.given[name, default: []].append(text)
            }
            do {
                result.parsed[name] = try spec.read(result.parsed[name], text)
            } catch {
                throw error.cliError(option: name, text: text)
            }
        }
        return result
    }
}
