/// A command line parsed against a command's options: each option's typed value, read as
/// `arguments[Self.seed]`, and the positionals.
///
/// Thread safety: a value type.
package struct ParsedArguments: Sendable {
    /// Each given option's value, made by its declaration (``OptionSpec``).
    var parsed: [String: any Sendable] = [:]
    /// Each given option's texts in command-line order (`[]` for a flag), for the command lines
    /// that manifests record.
    var given: [String: [String]] = [:]
    package var positionals: [String] = []
    /// The names of the options the command accepts: reading another one is a defect (it would
    /// always read its default), caught by an assertion in debug builds and tests.
    let accepted: Set<String>

    init(accepted: Set<String>) { self.accepted = accepted }

    /// The option's value: what the command line gave, or its default.
    package subscript<Value>(option: Option<Value>) -> Value {
        assert(accepted.contains(option.name), "\(option.name) is not one of this command's options")
        return parsed[option.name] as? Value ?? option.defaultValue
    }

    /// Whether the command line gave `option` (its default is not the same as giving it).
    package func contains(_ option: any DeclaredOption) -> Bool { given[option.spec.name] != nil }

    /// The texts given for `option` as typed, in order, for messages that quote them.
    package func texts(_ option: any DeclaredOption) -> [String] { given[option.spec.name] ?? [] }

    /// The option's value; a usage error naming it (`missing argument: --seed S`) when it is absent.
    package func required<Value>(_ option: Option<Value>) throws(CLIError) -> Value {
        guard contains(option) else { throw .missingArgument(option.spec.usage) }
        return self[option]
    }

    /// The value of an option that has no default; a usage error naming it when it is absent.
    package func required<Wrapped>(_ option: Option<Wrapped?>) throws(CLIError) -> Wrapped {
        guard let value = self[option] else { throw .missingArgument(option.spec.usage) }
        return value
    }

    /// The given options that take values, as arguments: by name, each name's values in order
    /// (`--exec a=x --exec b=y --seed 2`); what a manifest records of the command line.
    package var givenValues: [String] {
        given.filter { !$0.value.isEmpty }.sorted { $0.key < $1.key }.flatMap { name, texts in
            texts.flatMap { [name, $0] }
        }
    }

    /// The given flags, by name.
    package var givenFlags: [String] { given.filter(\.value.isEmpty).keys.sorted() }
}
