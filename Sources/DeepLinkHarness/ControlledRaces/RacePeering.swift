/// A worker's side of a pairing: its own desk (where its peer asks) and its peer's (where it asks).
///
/// Thread safety: immutable; the desks are thread-safe.
struct RacePeering: Sendable {
    let own: RaceDesk
    let peer: RaceDesk
    /// Whether this worker serves its peer's race while it waits for an answer itself (the
    /// higher-numbered worker of the pair does; the other waits, so they never both wait on each
    /// other nor both serve).
    let servesWhileAsking: Bool

    /// The pairing of worker `thread` among `threads` (worker 2k with 2k + 1; an odd one out has
    /// none) over `desks`, one per worker.
    static func of(_ thread: Int, threads: Int, desks: [RaceDesk]) -> RacePeering? {
        let other = thread ^ 1
        guard other < threads, desks.count >= threads else { return nil }
        return RacePeering(own: desks[thread], peer: desks[other], servesWhileAsking: thread > other)
    }
}
