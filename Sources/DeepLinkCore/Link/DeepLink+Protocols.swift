extension DeepLink: Equatable {
    @inlinable
    public static func == (lhs: DeepLink, rhs: DeepLink) -> Bool {
        guard lhs._count == rhs._count else { return false }
        return lhs.withUTF8Bytes { left in
            rhs.withUTF8Bytes { right in
                for index in 0..<left.count where left[index] != right[index] { return false }
                return true
            }
        }
    }
}

extension DeepLink: Hashable {
    @inlinable
    public func hash(into hasher: inout Hasher) {
        withUTF8Bytes { hasher.combine(bytes: $0) }
    }
}

extension DeepLink: CustomStringConvertible {
    public var description: String { string }
}
