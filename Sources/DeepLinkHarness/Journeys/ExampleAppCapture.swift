import DeepLinkCore

/// How the example app (``ExampleApp``) hands links to DeepLinkCore: only through the core's
/// public capture calls, the ones an app ships with, which validate, authenticate and dedupe every
/// link. ``CoreStrategy`` (its racing bursts too, ``CaptureBurst``) and `serve-core` capture
/// through this one piece of code, so the default run exercises exactly the calls an app makes (the
/// C ABI makes the same calls).
///
/// Thread safety: an immutable value; `Sendable`.
struct ExampleAppCapture: Sendable {
    /// The instance a racing burst captures through on whichever thread delivers it.
    static let shared = ExampleAppCapture()

    let validator = ExampleApp.validator
    let parser = ReferrerParser()
    let signing: SignedLinkVerifier? = ExampleApp.signing

    /// The App Clip validates its invocation URL, checks its signature against the shared
    /// container's consumed marks and writes it into `store` (a write that fails is lost, as a
    /// clip's would be). Returns the rejection, or `nil` when the link was written.
    func clipWrite(
        url: UnsafeRawBufferPointer,
        into store: any HandoffStore,
        atNanos: UInt64,
        id: UInt64
    )
        -> LinkRejection?
    {
        do throws(HandoffStoreError) {
            return try store.capture(
                payload: url,
                validator: validator,
                signing: signing,
                capturedAtNanos: atNanos,
                id: id
            )
        } catch {
            return nil
        }
    }

    /// The running app captures a URL (a universal link, or a payload of another `source`).
    func link(
        _ url: UnsafeRawBufferPointer,
        source: LinkSource = .universalLink,
        into resolver: LinkResolver,
        atNanos: UInt64,
        id: UInt64,
        installBeginTimestamp: UInt64 = 0,
        attribution: LinkAttribution = LinkAttribution()
    ) -> LinkRejection? {
        resolver.capture(
            payload: url,
            validator: validator,
            source: source,
            capturedAtNanos: atNanos,
            id: id,
            installBeginTimestamp: installBeginTimestamp,
            attribution: attribution
        )
    }

    /// The running app's Install Referrer callback: Play's referrer, its click time (the link's
    /// capture time) and its install-begin timestamp.
    func referrer(
        _ referrer: UnsafeRawBufferPointer,
        into resolver: LinkResolver,
        clickNanos: UInt64,
        id: UInt64,
        installBeginTimestamp: UInt64
    ) -> ReferrerVerdict {
        resolver.captureReferrer(
            referrer,
            parser: parser,
            validator: validator,
            capturedAtNanos: clickNanos,
            id: id,
            installBeginTimestamp: installBeginTimestamp,
            clickTimestampSeconds: clickNanos / 1_000_000_000
        )
    }

    /// Whether `rejection` came from the signature check rather than the validator.
    static func isSignatureRejection(_ rejection: LinkRejection) -> Bool {
        switch rejection {
        case .missingSignature, .badSignature, .unknownKey, .expiredSignature, .replayed: true
        case .empty, .tooLong, .notAPath, .schemeRelative, .foreignHost, .disallowedScheme, .controlCharacter,
            .invalidUTF8, .dotSegment, .backslash, .unknownRoute, .malformedPercentEscape, .invisibleCharacter,
            .encodedDelimiter, .invalidAccount:
            false
        }
    }
}
