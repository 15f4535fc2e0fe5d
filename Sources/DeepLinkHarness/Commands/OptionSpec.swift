/// What the parser and `--help` need of one option, whatever its value's type: its name, the
/// placeholder of its value (`nil` for a flag), its help line and how one occurrence's text becomes
/// a value. ``Option`` declares it with a type; ``CommandConfiguration`` lists these.
package struct OptionSpec: Sendable {
    package let name: String
    /// `--seed <S>`'s `S`; `nil`: a flag, which takes no value.
    package var valueName: String?
    package var help: String
    /// Reads one occurrence's text, given the value its earlier occurrences made (repeated options
    /// collect every value; the others keep the last).
    let read: @Sendable (_ earlier: (any Sendable)?, _ text: String) throws(OptionValueError) -> any Sendable

    init(
        name: String,
        valueName: String?,
        help: String,
        read: @escaping @Sendable ((any Sendable)?, String) throws(OptionValueError) -> any Sendable
    ) {
        self.name = name
        self.valueName = valueName
        self.help = help
        self.read = read
    }

    /// How `--help` lists the option: `--seed <S>`, or `--quiet`.
    package var label: String { valueName.map { "\(name) <\($0)>" } ?? name }

    /// How a usage error names the option: `--seed S`.
    package var usage: String { valueName.map { "\(name) \($0)" } ?? name }
}

/// An option that ``CommandConfiguration`` lists: an ``Option`` of any value type.
package protocol DeclaredOption: Sendable {
    var spec: OptionSpec { get }
}
