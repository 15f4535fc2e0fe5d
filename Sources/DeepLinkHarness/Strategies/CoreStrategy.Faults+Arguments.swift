extension CoreStrategy.Faults {
    /// The faults a comma-separated list names (`--core-faults`).
    static func parse(_ list: String) throws(OptionValueError) -> CoreStrategy.Faults {
        var faults: CoreStrategy.Faults = []
        for name in list.split(separator: ",", omittingEmptySubsequences: false) {
            guard let fault = named.first(where: { $0.name == name })?.fault else {
                throw .item(
                    String(name),
                    expected: "a comma-separated list of " + named.map(\.name).joined(separator: ", ")
                )
            }
            faults.insert(fault)
        }
        return faults
    }

    /// The list that names these faults (what `parse` reads back).
    var names: String { Self.named.filter { contains($0.fault) }.map(\.name).joined(separator: ",") }
}
