// The way in: every public call that captures a link validates it, authenticates it
// (``LinkResolver/Configuration/signing``) and hands it to the resolver, which dedupes it. The raw
// ``LinkResolver/capture(built:)`` they end in is not public.
extension LinkResolver {
    /// Validates a decoded payload (an App Clip invocation URL, a universal link, a custom-scheme
    /// link, a path), checks its signature when ``Configuration/signing`` requires one, and captures
    /// the link; or reports the rejection (``ResolverDecision/rejected(_:source:)``), from this
    /// thread, from any thread.
    ///
    /// - Parameters:
    ///   - decoded: the payload's bytes, already percent-decoded once (as the platform delivers a URL).
    ///   - validator: the app's link validator.
    ///   - source: where the payload came from.
    ///   - capturedAtNanos: the capture time on the resolver's clock; `nil` (the default): now.
    ///   - id: a new id for this capture (the same id is the same capture: re-deliveries dedupe).
    ///     A signed link's nonce replaces it.
    ///   - installBeginTimestamp: Play's install-begin timestamp, for a link from the Install
    ///     Referrer; 0 otherwise.
    ///   - account: the account the link is meant for (``PendingLink/account``), or `nil` for anyone.
    ///   - attribution: the campaign the link came from.
    /// - Returns: the rejection, or `nil` when the link was captured.
    /// - Complexity: O(n) in the payload's length; validation itself allocates nothing.
    @discardableResult
    public func capture(
        payload decoded: UnsafeRawBufferPointer,
        validator: LinkValidator,
        source: LinkSource,
        capturedAtNanos: UInt64? = nil,
        id: UInt64,
        installBeginTimestamp: UInt64 = 0,
        account: AccountID? = nil,
        attribution: LinkAttribution = LinkAttribution()
    ) -> LinkRejection? {
        var pending = PendingLink(
            link: DeepLink(_rootInPlace: ()),
            source: source,
            capturedAtNanos: capturedAtNanos ?? clock.nowNanos(),
            id: id,
            installBeginTimestamp: installBeginTimestamp,
            attribution: attribution,
            account: account
        )
        if let rejection = validator.validate(decoded, into: &pending.link) ?? authenticate(&pending) {
            captureRejected(rejection, source: source)
            return rejection
        }
        capture(built: &pending)
        return nil
    }

    /// The one call an Install Referrer callback needs: parses `referrer` (the string Play's
    /// `getInstallReferrer()` returned, as UTF-8 bytes), keeps its campaign fields with the link
    /// (``PendingLink/attribution``), binds it to the account its
    /// ``Configuration/referrerAccountKey`` field names (when the app binds links), checks its
    /// signature when ``Configuration/signing`` requires one, and captures the link; or reports
    /// the rejection, the linkless referrer (organic, not set, no payload) or the parser's error
    /// as a decision, from this thread.
    ///
    /// - Parameters:
    ///   - referrer: the referrer string exactly as Play's Install Referrer API returned it.
    ///   - parser: the app's referrer parser.
    ///   - validator: the app's link validator (its configuration decides what is a link).
    ///   - capturedAtNanos: the link's capture time on the resolver's clock (Play's click time);
    ///     `nil`: now.
    ///   - id: a new id for this delivery.
    ///   - installBeginTimestamp: Play's `installBeginTimestampSeconds`: the same on every
    ///     re-delivery, so that the resolver routes the link once per install.
    ///   - clickTimestampSeconds: Play's `referrerClickTimestampSeconds`, kept in the attribution.
    /// - Returns: what the referrer held; a link that failed its signature check is
    ///   ``ReferrerVerdict/rejected(_:)``.
    /// - Complexity: O(n) in the referrer's length; allocates nothing when the store, observer and
    ///   clock do not.
    @discardableResult
    public func captureReferrer(
        _ referrer: UnsafeRawBufferPointer,
        parser: ReferrerParser,
        validator: LinkValidator,
        capturedAtNanos: UInt64? = nil,
        id: UInt64,
        installBeginTimestamp: UInt64,
        clickTimestampSeconds: UInt64 = 0
    ) -> ReferrerVerdict {
        var pending = PendingLink(
            link: DeepLink(_rootInPlace: ()),
            source: .installReferrer,
            capturedAtNanos: capturedAtNanos ?? clock.nowNanos(),
            id: id,
            installBeginTimestamp: installBeginTimestamp,
            attribution: LinkAttribution(clickTimestampSeconds: clickTimestampSeconds)
        )
        var verdict = parser.read(referrer, validator: validator, accountKey: referrerAccountKey, into: &pending)
        if case .link = verdict, let rejection = authenticate(&pending) { verdict = .rejected(rejection) }
        switch verdict {
        case .link: capture(built: &pending)
        case .organic: captureLinkless(.organic, attribution: pending.attribution)
        case .notSet: captureLinkless(.notSet, attribution: pending.attribution)
        case .noPayload: captureLinkless(.noPayload, attribution: pending.attribution)
        case .rejected(let rejection): captureRejected(rejection, source: .installReferrer)
        case .error(let error):
            guard process.isAlive else { break }
            report(.referrerRefused, .referrerRefused(error))
        }
        return verdict
    }

    /// Checks a validated link against ``Configuration/signing`` before it is captured (see
    /// ``SignedLinkVerifier/authenticate(_:store:nowSeconds:)``): a signed link's capture id becomes
    /// its nonce. Returns the rejection, or `nil` when `pending` may be captured.
    ///
    /// - Complexity: O(n) in the link's length plus the authenticator's MAC and one
    ///   ``HandoffStore/wasConsumed(_:)`` for a signed link; nothing without ``Configuration/signing``.
    package func authenticate(_ pending: inout PendingLink) -> LinkRejection? {
        // Called through the optional in place: `guard let signing` copies the verifier, a retain
        // and a release on every capture.
        signing?.authenticate(&pending, store: store, nowSeconds: clock.nowNanos() / 1_000_000_000) ?? nil
    }

    /// Reports a referrer that carried no link (from any thread): the observer gets
    /// ``ResolverDecision/linklessReferrer(_:attribution:)`` at once, from this thread, so that the
    /// app can count organic and not-set installs with their campaign. Nothing is saved or routed.
    package func captureLinkless(_ kind: ResolverDecision.LinklessReferrer, attribution: LinkAttribution) {
        guard process.isAlive else { return }
        report(.linklessReferrer, .linklessReferrer(kind, attribution: attribution))
    }
}
