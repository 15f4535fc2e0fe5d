// The C library, for memcmp: glibc (Linux), Bionic (Android), Darwin (Apple).
#if canImport(Glibc)
import Glibc
#elseif canImport(Android)
import Android
#elseif canImport(Darwin)
import Darwin
#endif

extension LinkAttribution: Equatable {
    public static func == (lhs: LinkAttribution, rhs: LinkAttribution) -> Bool {
        guard lhs._present == rhs._present, lhs.isTruncated == rhs.isTruncated,
            lhs.clickTimestampSeconds == rhs.clickTimestampSeconds
        else { return false }
        for index in 0..<LinkAttribution._fieldCount where lhs._ends[index] != rhs._ends[index] { return false }
        let count = Int(lhs._ends[LinkAttribution._fieldCount - 1])
        // One memcmp over the values: the bounds-checked subscripts cost several instructions a byte.
        return lhs._bytes.span.withUnsafeBytes { left in
            rhs._bytes.span.withUnsafeBytes { right in memcmp(left.baseAddress!, right.baseAddress!, count) == 0 }
        }
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
        for field in LinkAttribution.Field.allCases {
            if let value = value(field) { parts.append("\(field.key)=\(value)") }
        }
        if clickTimestampSeconds != 0 { parts.append("click=\(clickTimestampSeconds)") }
        if isTruncated { parts.append("(truncated)") }
        return parts.isEmpty ? "(none)" : parts.joined(separator: " ")
    }
}
