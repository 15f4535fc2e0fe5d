// By value, not by storage: `account`'s bytes past its count (like the link's and the
// attribution's) are whatever the record's memory held before.

extension PendingLink: Equatable {
    @inlinable
    public static func == (lhs: PendingLink, rhs: PendingLink) -> Bool {
        lhs.link == rhs.link && lhs.source == rhs.source && lhs.capturedAtNanos == rhs.capturedAtNanos
            && lhs.id == rhs.id && lhs.installBeginTimestamp == rhs.installBeginTimestamp
            && lhs.attribution == rhs.attribution && lhs.account == rhs.account
    }
}

extension PendingLink: Hashable {
    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(link)
        hasher.combine(source)
        hasher.combine(capturedAtNanos)
        hasher.combine(id)
        hasher.combine(installBeginTimestamp)
        hasher.combine(attribution)
        hasher.combine(account)
    }
}
