/// One command-line option, declared once with its name, value type, default and help, and read
/// as `arguments[Self.seed]` (or `arguments[.out]` for the options several commands share,
/// `Option+Shared.swift`). The parser checks its value when the command line is parsed, so a bad
/// value is a usage error before the command starts.
///
///     static let seed = Option("--seed", value: "S", default: UInt64(1), as: .unsigned, help: "…")
///     static let out = Option("--out", value: "DIR", as: .text, help: "…")      // String?, nil when absent
///     static let rule = Option("--rule", value: "NAME", repeatedAs: .text, help: "…")  // [String]
///     static let quiet = Flag("--quiet", help: "…")                                    // Bool
///
/// Thread safety: an immutable value.
package struct Option<Value: Sendable>: DeclaredOption {
    package private(set) var spec: OptionSpec
    /// The value when the option is absent.
    let defaultValue: Value

    package var name: String { spec.name }

    /// An option taking a value, `default` when absent; the last occurrence wins.
    package init(_ name: String, value valueName: String, default: Value, as parser: ValueParser<Value>, help: String) {
        spec = OptionSpec(name: name, valueName: valueName, help: help) { _, text throws(OptionValueError) in
            try parser.parse(text)
        }
        defaultValue = `default`
    }

    /// The same option described for one command (a shared `--out` says where that command writes,
    /// and whether it is a file).
    package func described(_ text: String, value valueName: String? = nil) -> Self {
        var described = self
        described.spec.help = text
        if let valueName { described.spec.valueName = valueName }
        return described
    }
}

extension Option {
    /// An option taking a value, `nil` when absent; the last occurrence wins.
    package init<Wrapped>(_ name: String, value valueName: String, as parser: ValueParser<Wrapped>, help: String)
    where Value == Wrapped? {
        spec = OptionSpec(name: name, valueName: valueName, help: help) { _, text throws(OptionValueError) in
            Optional(try parser.parse(text))
        }
        defaultValue = nil
    }

    /// An option that may be given more than once: every value, in command-line order (empty when
    /// absent).
    package init<Element>(
        _ name: String,
        value valueName: String,
        repeatedAs parser: ValueParser<Element>,
        help: String
    ) where Value == [Element] {
        spec = OptionSpec(name: name, valueName: valueName, help: help) { earlier, text throws(OptionValueError) in
            (earlier as? [Element] ?? []) + [try parser.parse(text)]
        }
        defaultValue = []
    }
}

extension Option where Value == Bool {
    /// A flag: `true` when given. It takes no value.
    package init(_ name: String, help: String) {
        spec = OptionSpec(name: name, valueName: nil, help: help) { _, _ in true }
        defaultValue = false
    }
}

/// A flag (`--quiet`): an option without a value, `true` when given.
package typealias Flag = Option<Bool>
