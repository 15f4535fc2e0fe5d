public import DeepLinkCore

/// The records `handoff-crash-writer` writes, one per id, so that the crash test can check every
/// field of what it finds after a kill.
///
/// Thread safety: stateless.
public enum CrashWriterRecords {
    /// The record with `id`: links of varying length (up to ``DeepLink/capacity``), sources and
    /// timestamps all derived from `id`.
    public static func record(id: UInt64) -> PendingLink {
        let padding = String(repeating: "p", count: Int(id % 449))
        let text = "/product/\(id)?ref=crash&pad=\(padding)"
        let link = DeepLink(validated: text) ?? DeepLink(validated: "/product")!
        return PendingLink(
            link: link,
            source: LinkSource.allCases[Int(id % UInt64(LinkSource.allCases.count))],
            capturedAtNanos: id &* 1_000_003,
            id: id
        )
    }
}
