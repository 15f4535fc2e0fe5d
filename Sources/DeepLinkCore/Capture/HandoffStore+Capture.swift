extension HandoffStore {
    /// The App Clip's way in (a process without a resolver): validates a decoded payload, checks
    /// its signature when `signing` requires one (with this store's consumed marks for the nonce,
    /// as of the capture time) and saves the link for the full app, whose ``LinkResolver/launch()``
    /// captures it. A rejected payload is not saved.
    ///
    /// - Parameters:
    ///   - decoded: the invocation URL's bytes, already percent-decoded once.
    ///   - validator: the app's link validator.
    ///   - signing: the app's signature rules (``LinkResolver/Configuration/signing``), or `nil`.
    ///   - source: where the payload came from (``LinkSource/appClip``).
    ///   - capturedAtNanos: the capture time, nanoseconds of Unix time; `nil` (the default): now.
    ///   - id: a new id for this handoff (a signed link's nonce replaces it).
    ///   - account: the account the link is meant for, or `nil` for anyone.
    /// - Returns: the rejection, or `nil` when the link was saved.
    /// - Throws: what ``save(_:)`` throws.
    @discardableResult
    public func capture(
        payload decoded: UnsafeRawBufferPointer,
        validator: LinkValidator,
        signing: SignedLinkVerifier?,
        source: LinkSource = .appClip,
        capturedAtNanos: UInt64? = nil,
        id: UInt64,
        account: AccountID? = nil
    ) throws(HandoffStoreError) -> LinkRejection? {
        let now = capturedAtNanos ?? WallClock().nowNanos()
        var pending = PendingLink(
            link: DeepLink(_rootInPlace: ()),
            source: source,
            capturedAtNanos: now,
            id: id,
            account: account
        )
        if let rejection = validator.validate(decoded, into: &pending.link)
            ?? signing?.authenticate(&pending, store: self, nowSeconds: now / 1_000_000_000)
        {
            return rejection
        }
        try save(pending)
        return nil
    }
}
