/// The outcome names the reports know, in summary.csv column order: ``JourneyOutcome/name``, the
/// one spelling of an outcome in every file, the terminal and the page.
///
/// Thread safety: constants and pure functions.
package enum Outcome {
    package static let routed = JourneyOutcome.routed.name
    package static let misrouted = JourneyOutcome.misrouted.name
    package static let duplicated = JourneyOutcome.duplicated.name
    package static let premature = JourneyOutcome.premature.name
    package static let lost = JourneyOutcome.lost.name
    package static let expired = JourneyOutcome.expired.name
    /// Rejections carry their reason: `rejected:<reason>`.
    package static let rejectedPrefix = "rejected"
    package static let superseded = JourneyOutcome.superseded.name
    package static let organic = JourneyOutcome.organic.name
    package static let notSet = JourneyOutcome.notSet.name
    package static let noLink = JourneyOutcome.noLink.name
    package static let crashWindow = JourneyOutcome.crashWindow.name
    package static let stale = JourneyOutcome.stale.name
    package static let unsafe = JourneyOutcome.unsafe.name
    package static let late = JourneyOutcome.late.name
    package static let misjudged = JourneyOutcome.misjudged.name
    package static let hung = JourneyOutcome.hung.name
    package static let trapped = JourneyOutcome.trapped.name

    /// The outcomes that count as violations: ``JourneyOutcome/violations``, by name.
    package static let violations = JourneyOutcome.violations.map(\.name)

    /// `rejected:<reason>`.
    package static func rejected(_ reason: String) -> String { "\(rejectedPrefix):\(reason)" }

    /// Whether `outcome` is a violation (one of ``violations``).
    package static func isViolation(_ outcome: String) -> Bool { violations.contains(outcome) }

    /// The summary.csv column of each known outcome, in column order: the outcome's name (as in
    /// outcomes.csv, the terminal and the page) in snake case, as every CSV column is named
    /// (`crashWindow` → `crash_window`).
    package static let summaryColumns: [(outcome: String, column: String)] = [
        routed, misrouted, duplicated, premature, lost, expired, rejectedPrefix, superseded, organic, notSet, noLink,
        crashWindow, stale, unsafe, late, misjudged, hung, trapped,
    ].map { ($0, snakeCase($0)) }

    /// `crashWindow` → `crash_window`.
    static func snakeCase(_ name: String) -> String {
        var column = ""
        for character in name {
            if character.isUppercase { column += "_" + character.lowercased() } else { column.append(character) }
        }
        return column
    }

    /// The summary.csv column an outcome counts under: its own, `rejected` for `rejected:<reason>`,
    /// or `unclassified`.
    package static func summaryColumn(for outcome: String) -> String {
        if outcome == rejectedPrefix || outcome.hasPrefix(rejectedPrefix + ":") { return "rejected" }
        for entry in summaryColumns where entry.outcome == outcome { return entry.column }
        return "unclassified"
    }
}
