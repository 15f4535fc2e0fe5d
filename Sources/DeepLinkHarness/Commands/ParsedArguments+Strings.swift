// Transitional: the string lookups commands used before their options were declared typed.
// Removed once every command reads `arguments[option]`.
extension ParsedArguments {
    package var flags: Set<String> { Set(texts.filter(\.value.isEmpty).keys) }
    package var repeated: [String: [String]] { texts.filter { !$0.value.isEmpty } }
    package var values: [String: String] { repeated.compactMapValues(\.last) }

    package func has(_ flag: String) -> Bool { texts[flag] != nil }

    package func string(_ option: String) -> String? { texts[option]?.last }

    package func strings(_ option: String) -> [String] { texts[option] ?? [] }

    package func integer(_ option: String, in range: ClosedRange<Int>) throws(CLIError) -> Int? {
        guard let text = string(option) else { return nil }
        do { return try ValueParser.integer(in: range).parse(text) } catch {
            throw error.cliError(option: option, text: text)
        }
    }

    package func unsigned(_ option: String) throws(CLIError) -> UInt64? {
        guard let text = string(option) else { return nil }
        do { return try ValueParser.unsigned.parse(text) } catch { throw error.cliError(option: option, text: text) }
    }

    package func double(_ option: String, in range: ClosedRange<Double>) throws(CLIError) -> Double? {
        guard let text = string(option) else { return nil }
        do { return try ValueParser.number(in: range).parse(text) } catch {
            throw error.cliError(option: option, text: text)
        }
    }
}

extension OptionSpec {
    package init(_ name: String, value valueName: String? = nil, help: String) {
        self.init(name: name, valueName: valueName, help: help) { _, text in text }
    }

    package static func flag(_ name: String, help: String) -> OptionSpec { OptionSpec(name, help: help) }
}

extension OptionSpec: DeclaredOption {
    package var spec: OptionSpec { self }
}
