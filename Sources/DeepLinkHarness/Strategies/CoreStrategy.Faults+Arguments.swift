extension CoreStrategy.Faults {
    /// `--core-faults LIST` (`run` and `replay`); empty when absent.
    static func parse(_ arguments: ParsedArguments) throws(CLIError) -> CoreStrategy.Faults {
        guard let list = arguments.string("--core-faults") else { return [] }
        var faults: CoreStrategy.Faults = []
        for name in list.split(separator: ",", omittingEmptySubsequences: false) {
            guard let fault = named.first(where: { $0.name == name })?.fault else {
                throw .invalidValue(
                    option: "--core-faults",
                    value: String(name),
                    expected: "a comma-separated list of " + named.map(\.name).joined(separator: ", ")
                )
            }
            faults.insert(fault)
        }
        return faults
    }
}
