/// A peer strategy's implementation as the state it keeps behind its one lock (``LockedPeer``):
/// every event of a journey is one call into it, as every call into a thread-safe SDK takes its
/// lock, and a racing journey's two raced events arrive from two threads at once.
///
/// Thread safety: a value type; ``LockedPeer`` makes every access exclusive.
protocol PeerModel: Sendable {
    /// A new install: nothing kept from the previous journey.
    mutating func install()
    /// A launch's new process, before anything reaches the app. In a race whose first input is a
    /// launch, the worker starts the process before the race (as `core` relaunches its resolver
    /// before its launch's load races); only the load (``handle(_:of:step:into:)``) races.
    mutating func startProcess()
    /// Handles `event` of `journey` (a launch: its load, after ``startProcess()``); a router call
    /// is recorded at `step`.
    mutating func handle(
        _ event: JourneyEvent,
        of journey: Journey,
        step: Int,
        into observation: inout StrategyObservation
    )
}
