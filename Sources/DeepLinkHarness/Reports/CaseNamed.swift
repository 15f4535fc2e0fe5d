/// An enum spelled in the reports and on the command line by its case names (`lateLogin`,
/// `dotSegment`): ``name`` is derived from the cases, not written out a second time.
///
/// Thread safety: `names` is an immutable static.
package protocol CaseNamed: CaseIterable, RawRepresentable<UInt8> {
    /// Every case's name by raw value: ``caseNames()``, kept once by each type (a `static let`)
    /// so that ``name`` is one array read.
    static var names: [String] { get }
}

extension CaseNamed {
    /// The cases' names in raw-value order. The raw values must number the cases 0, 1, 2, … in
    /// declaration order (the default for `UInt8` raw values).
    static func caseNames() -> [String] {
        allCases.enumerated().map { index, value in
            precondition(Int(value.rawValue) == index, "\(Self.self)'s raw values do not number its cases in order")
            return String(describing: value)
        }
    }

    /// The case's name, as written in its declaration.
    package var name: String { Self.names[Int(rawValue)] }
}
