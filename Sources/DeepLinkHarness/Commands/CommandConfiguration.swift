/// What a subcommand says about itself: its name, a one-line abstract, usage and options. `--help`
/// is rendered from this.
package struct CommandConfiguration: Sendable {
    package var name: String
    package var abstract: String
    package var usage: String
    package var discussion: String
    /// Every option the command accepts, `--help` last.
    package var options: [OptionSpec]

    package init(
        name: String,
        abstract: String,
        usage: String,
        discussion: String = "",
        options: [any DeclaredOption]
    ) {
        self.name = name
        self.abstract = abstract
        self.usage = usage
        self.discussion = discussion
        self.options = (options + [Flag.help]).map(\.spec)
    }

    /// The `--help` text.
    package var help: String {
        var text = "OVERVIEW: \(abstract)\n\nUSAGE: deeplink-bench \(usage)\n"
        if !discussion.isEmpty { text += "\n\(discussion)\n" }
        text += "\nOPTIONS:\n"
        let labels = options.map(\.label)
        let width = labels.map(\.count).max() ?? 0
        for (label, option) in zip(labels, options) {
            text += "  " + label + String(repeating: " ", count: width - label.count + 2) + option.help + "\n"
        }
        return text
    }
}
