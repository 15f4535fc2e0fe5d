extension LinkAttribution: Equatable {
    public static func == (lhs: LinkAttribution, rhs: LinkAttribution) -> Bool {
        guard lhs._present == rhs._present, lhs.isTruncated == rhs.isTruncated,
            lhs.clickTimestampSeconds == rhs.clickTimestampSeconds
        else { return false }
        for index in 0..<LinkAttribution._fieldCount where lhs._ends[index] != rhs._ends[index] { return false }
        for index in 0..<Int(lhs._ends[LinkAttribution._fieldCount - 1])
        where lhs._bytes[index] != rhs._bytes[index] {
            return false
        }
        return true
    }
}

extension LinkAttribution: Hashable {
    public func hash(into hasher: inout Hasher) {
        hasher.combine(_present)
        hasher.combine(isTruncated)
        hasher.combine(clickTimestampSeconds)
        for index in 0..<Int(_ends[LinkAttribution._fieldCount - 1]) { hasher.combine(_bytes[index]) }
    }
}

extension LinkAttribution: CustomStringConvertible {
    /// `utm_source=google utm_medium=cpc …` (present fields only), for logs and test failures.
    public var description: String {
        var parts: [String] = []
        for field in AttributionField.allCases {
            if let value = value(field) { parts.append("\(field.key)=\(value)") }
        }
        if clickTimestampSeconds != 0 { parts.append("click=\(clickTimestampSeconds)") }
        if isTruncated { parts.append("(truncated)") }
        return parts.isEmpty ? "(none)" : parts.joined(separator: " ")
    }
}
