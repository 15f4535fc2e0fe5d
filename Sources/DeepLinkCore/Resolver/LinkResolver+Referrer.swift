extension LinkResolver {
    /// Reports a referrer that carried no link (from any thread): the observer gets
    /// ``ResolverDecision/linklessReferrer(_:attribution:)`` at once, from this thread, so that the
    /// app can count organic and not-set installs with their campaign. Nothing is saved or routed.
    public func captureLinkless(_ kind: LinklessReferrer, attribution: LinkAttribution) {
        guard process.isAlive else { return }
        report(.linklessReferrer, .linklessReferrer(kind, attribution: attribution))
    }

    /// The one call an Install Referrer callback needs: parses `referrer` (the string Play's
    /// `getInstallReferrer()` returned, as UTF-8 bytes), keeps its campaign fields with the link
    /// (``PendingLink/attribution``), binds it to the account its
    /// ``Configuration/referrerAccountKey`` field names (when the app binds links), and captures
    /// the link, or reports the rejection, the linkless referrer (organic, not set, no payload) or
    /// the parser's error as a decision. A link under a signing prefix must pass
    /// ``authenticate(_:)`` first (``Configuration/signing``).
    ///
    /// - Parameters:
    ///   - referrer: the referrer string exactly as Play's Install Referrer API returned it.
    ///   - parser: the app's referrer parser.
    ///   - validator: the app's link validator (its configuration decides what is a link).
    ///   - capturedAtNanos: the link's capture time on the resolver's clock (Play's click time).
    ///   - id: a new id for this delivery.
    ///   - installBeginTimestamp: Play's `installBeginTimestampSeconds`: the same on every
    ///     re-delivery, so that the resolver routes the link once per install.
    ///   - clickTimestampSeconds: Play's `referrerClickTimestampSeconds`, kept in the attribution.
    /// - Returns: what the referrer held.
    /// - Complexity: O(n) in the referrer's length; allocates nothing when the store, observer and
    ///   clock do not.
    @discardableResult
    public func captureReferrer(
        _ referrer: UnsafeRawBufferPointer,
        parser: ReferrerParser,
        validator: LinkValidator,
        capturedAtNanos: UInt64,
        id: UInt64,
        installBeginTimestamp: UInt64,
        clickTimestampSeconds: UInt64 = 0
    ) -> ReferrerOutcome {
        var pending = PendingLink(
            link: ._root,
            source: .installReferrer,
            capturedAtNanos: capturedAtNanos,
            id: id,
            installBeginTimestamp: installBeginTimestamp,
            attribution: LinkAttribution(clickTimestampSeconds: clickTimestampSeconds)
        )
        var outcome = parser.read(referrer, validator: validator, accountKey: referrerAccountKey, into: &pending)
        if case .link = outcome, let rejection = authenticate(&pending) { outcome = .rejected(rejection) }
        switch outcome {
        case .link: capture(pending)
        case .organic: captureLinkless(.organic, attribution: pending.attribution)
        case .notSet: captureLinkless(.notSet, attribution: pending.attribution)
        case .noPayload: captureLinkless(.noPayload, attribution: pending.attribution)
        case .rejected(let rejection): captureRejected(rejection, source: .installReferrer)
        case .error(let error):
            guard process.isAlive else { break }
            report(.referrerRefused, .referrerRefused(error))
        }
        return outcome
    }
}
