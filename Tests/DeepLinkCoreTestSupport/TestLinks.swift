public import DeepLinkCore

/// A pending link to `path` (a valid link path), for the resolver and store suites.
public func pendingLink(
    _ path: String,
    id: UInt64,
    at capturedAtNanos: UInt64 = 0,
    source: LinkSource = .appClip,
    installBegin: UInt64 = 0
) -> PendingLink {
    PendingLink(
        link: DeepLink(validated: path)!,
        source: source,
        capturedAtNanos: capturedAtNanos,
        id: id,
        installBeginTimestamp: installBegin
    )
}
