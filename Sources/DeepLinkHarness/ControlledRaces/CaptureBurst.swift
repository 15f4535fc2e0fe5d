import DeepLinkCore

/// `copies` captures of one link back to back: under new ids when `newIDs` (as Play re-delivers a
/// referrer: copy `c` gets id `id + idOffset + 1000 c`), otherwise under its own id (as a handoff
/// or universal link read again).
///
/// Thread safety: a value type; `Sendable`.
struct CaptureBurst: Sendable {
    var link: PendingLink
    var copies: Int
    var newIDs: Bool
    var idOffset: UInt64

    func deliver(to resolver: LinkResolver) {
        var copy = link
        for index in 0..<max(1, copies) {
            if newIDs { copy.id = link.id &+ idOffset &+ UInt64(index) &* 1_000 }
            resolver.capture(copy)
        }
    }
}
