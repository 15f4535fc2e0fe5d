/// Simulation only (`package`): told when the simulated process was killed after a link's consumed
/// mark was written and before the router was called, the one window where *at most once* across
/// a crash loses a link. A real app never hears of it: its process is gone.
///
/// A ``ResolverObserver`` that also conforms gets these reports from ``LinkResolver``.
///
/// Thread safety: called from whichever thread drains the resolver.
package protocol CrashWindowObserver: Sendable {
    func resolverKilledInCrashWindow(_ link: PendingLink)
}
