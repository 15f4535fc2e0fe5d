import Testing

/// The cases a property test compared with its reference, and the ones that disagreed. Only the
/// first five disagreements are recorded as issues: one fault disagrees in thousands of cases, and
/// the rest would only repeat it.
struct PropertyCheck {
    private(set) var cases = 0
    private(set) var mismatches = 0

    /// Counts one case; records `description` as an issue when it disagrees and is one of the first
    /// five that did.
    mutating func record(
        _ agrees: Bool,
        _ description: @autoclosure () -> String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        cases += 1
        guard !agrees else { return }
        mismatches += 1
        if mismatches <= 5 { Issue.record(Comment(rawValue: description()), sourceLocation: sourceLocation) }
    }
}
