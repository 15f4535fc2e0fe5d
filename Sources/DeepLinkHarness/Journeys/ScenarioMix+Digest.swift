extension ScenarioMix {
    /// Every stored value of the mix, one `name=value` line each in declaration order (arrays as
    /// space-separated values, numbers in Swift's shortest round-trip form). Read by reflection,
    /// so a field added to the mix is part of it without being listed here.
    package var canonicalText: String {
        var text = ""
        for child in Mirror(reflecting: self).children {
            let value: String
            if let numbers = child.value as? [Double] {
                value = numbers.map { "\($0)" }.joined(separator: " ")
            } else {
                value = "\(child.value)"
            }
            text += "\(child.label ?? "?")=\(value)\n"
        }
        return text
    }

    /// SHA-256 of ``canonicalText``: two runs with the same digest drew journeys from the same mix.
    package var digest: String { SHA256Digest.hex(of: Array(canonicalText.utf8)) }
}
