extension AccountID: Equatable {
    @inlinable
    public static func == (lhs: AccountID, rhs: AccountID) -> Bool {
        guard lhs._count == rhs._count else { return false }
        return lhs.withUTF8Bytes { left in
            rhs.withUTF8Bytes { right in
                for index in 0..<left.count where left[index] != right[index] { return false }
                return true
            }
        }
    }
}

extension AccountID: Hashable {
    public func hash(into hasher: inout Hasher) {
        withUTF8Bytes { hasher.combine(bytes: $0) }
    }
}

extension AccountID: CustomStringConvertible {
    public var description: String { string }
}
