extension LinkResolver {
    /// Harness: resets the capture queue as new (see ``PendingLinkQueue/_resetAsNew()``), after a
    /// journey whose planted concurrency fault may have corrupted it.
    ///
    /// - Precondition: no other thread uses the resolver.
    package func resetQueueAsNew() {
        queue._resetAsNew()
    }
}

extension LinkResolver {
    /// Harness: the first broken invariant of the capture queue (see
    /// ``PendingLinkQueue/_quiescentInvariantViolation()``), or `nil`. A queue whose slot holds a
    /// record no position will ever read again stranded that capture.
    ///
    /// - Precondition: no other thread uses the resolver.
    package var queueInvariantViolation: String? { queue._quiescentInvariantViolation() }
}
