/// A command line parsed against a command's options: each option's typed value, read as
/// `arguments[Self.seed]`, and the positionals.
///
/// Thread safety: a value type.
package struct ParsedArguments: Sendable {
    /// Each given option's value, made by its declaration (``OptionSpec``).
    var parsed: [String: any Sendable] = [:]
    /// Each given option's texts in command-line order (`[]` for a flag), for the command lines
    /// that manifests record.
    var texts: [String: [String]] = [:]
    package var positionals: [String] = []

    package init() {}

    /// The option's value: what the command line gave, or its default.
    package subscript<Value>(option: Option<Value>) -> Value {
        parsed[option.name] as? Value ?? option.defaultValue
    }

    /// Whether the command line gave `option` (its default is not the same as giving it).
    package func contains<Value>(_ option: Option<Value>) -> Bool { texts[option.name] != nil }

    /// The option's value; a usage error naming `--seed <S>` when it is absent.
    package func required<Value>(_ option: Option<Value>) throws(CLIError) -> Value {
        guard contains(option) else { throw .missingArgument(option.spec.label) }
        return self[option]
    }

    /// The given options that take values, as arguments: by name, each name's values in order
    /// (`--exec a=x --exec b=y --seed 2`); what a manifest records of the command line.
    package var givenValues: [String] {
        texts.filter { !$0.value.isEmpty }.sorted { $0.key < $1.key }.flatMap { name, texts in
            texts.flatMap { [name, $0] }
        }
    }

    /// The given flags, by name.
    package var givenFlags: [String] { texts.filter(\.value.isEmpty).keys.sorted() }
}
