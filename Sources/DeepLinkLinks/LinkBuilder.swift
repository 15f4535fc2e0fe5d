public import DeepLinkCore

/// Makes the links an app team publishes, checked by the same validator and parser the app runs:
///
/// - the Play Store URL, `https://play.google.com/store/apps/details?id=PKG&referrer=…`, whose
///   `referrer` value is the Install Referrer Play hands the app: the payload field
///   (`deeplink=…`, form-encoded exactly once) and any `utm_*` fields, URL-encoded once more as a
///   query value (``playStoreURL(package:link:attribution:)``);
/// - the App Clip invocation URL on the app's own domain (``appClipURL(host:link:)``) and Apple's
///   default form `https://appclip.apple.com/id?p=<clip bundle id>&…`
///   (``appClipDefaultURL(clipBundleID:query:)``);
/// - the universal link for the installed app (``universalLink(host:link:)``), the same
///   `https://host/path?query` form as the App Clip URL;
/// - signed links (``signed(_:authenticator:expiresAtSeconds:nonce:)``, ``LinkSignature``).
///
/// Every link is checked before it is returned: the referrer against the parser's limits (its own
/// ``ReferrerParser/Configuration``, no restated numbers), and every form is read back through the
/// parser and validator, which must recover exactly the canonical link put in.
///
/// Thread safety: an immutable value; `Sendable`.
public struct LinkBuilder: Sendable {
    /// The validator whose canonical links the builder makes (the app's configuration).
    public let validator: LinkValidator
    /// The parser whose limits a referrer must respect (the app's configuration).
    public let parser: ReferrerParser

    public init(validator: LinkValidator, parser: ReferrerParser = ReferrerParser()) {
        self.validator = validator
        self.parser = parser
    }

    /// The canonical link `link` (a path with an optional query) stands for, if it is already
    /// canonical.
    ///
    /// - Throws: ``LinkBuilderError/rejected(link:reason:)`` or
    ///   ``LinkBuilderError/notCanonical(link:canonical:)``.
    public func canonicalLink(_ link: String) throws(LinkBuilderError) -> DeepLink {
        switch validator.validate(link) {
        case .failure(let reason): throw .rejected(link: link, reason: reason)
        case .success(let canonical):
            guard canonical.string == link else { throw .notCanonical(link: link, canonical: canonical.string) }
            return canonical
        }
    }

    /// `link` signed with `authenticator`'s active key: the ``LinkSignature`` fields appended to
    /// its query, then the tag over everything before it.
    ///
    /// - Throws: ``LinkBuilderError/alreadySigned(_:)``, ``LinkBuilderError/expiryOutOfRange(_:)``,
    ///   ``LinkBuilderError/signedLinkTooLong(length:limit:)``, or a validator rejection of the result.
    public func signed(
        _ link: DeepLink,
        authenticator: HMACSHA256Authenticator,
        expiresAtSeconds: UInt64,
        nonce: UInt64
    ) throws(LinkBuilderError) -> DeepLink {
        let text = link.string
        guard link.hasQuery == false || !Self.queryHasTagField(text) else { throw .alreadySigned(text) }
        guard String(expiresAtSeconds).utf8.count <= LinkSignature.maxExpiryDigits else {
            throw .expiryOutOfRange(expiresAtSeconds)
        }
        let message =
            text + (link.hasQuery ? "&" : "?")
            + LinkSignature.signedFields(
                keyID: authenticator.activeKeyID,
                expiresAtSeconds: expiresAtSeconds,
                nonce: nonce
            )
        let signed = message + LinkSignature.tagSuffix(authenticator.tag(for: message.utf8))
        guard signed.utf8.count <= DeepLink.capacity else {
            throw .signedLinkTooLong(length: signed.utf8.count, limit: DeepLink.capacity)
        }
        return try canonicalLink(signed)
    }

    /// The Install Referrer for `link`: the payload field, form-encoded once, then `attribution`'s
    /// fields in the order given.
    ///
    /// - Throws: ``LinkBuilderError/referrerTooLong(length:limit:)``,
    ///   ``LinkBuilderError/tooManyFields(count:limit:)`` or
    ///   ``LinkBuilderError/roundTripFailed(link:found:)``.
    public func referrer(
        for link: DeepLink,
        attribution: [(field: LinkAttribution.Field, value: String)] = []
    ) throws(LinkBuilderError) -> String {
        var referrer = FormEncoding.encode(parser.configuration.payloadKey) + "=" + FormEncoding.encode(link.string)
        for (field, value) in attribution {
            referrer += "&" + field.key.description + "=" + FormEncoding.encode(value)
        }
        let length = referrer.utf8.count
        let limits = parser.configuration
        guard length <= limits.maxInputBytes else {
            throw .referrerTooLong(length: length, limit: limits.maxInputBytes)
        }
        let fieldCount = 1 + attribution.count
        guard fieldCount <= limits.maxFields else { throw .tooManyFields(count: fieldCount, limit: limits.maxFields) }
        var found = DeepLink(validated: "/")!
        let verdict = parser.verdict(for: referrer, validator: validator, into: &found)
        guard case .link = verdict, found == link else {
            let detail = if case .link = verdict { found.string } else { verdict.reason ?? "" }
            throw .roundTripFailed(link: link.string, found: "\(verdict.name) \(detail)")
        }
        return referrer
    }

    /// The Play Store URL of `package` carrying the referrer for `link` (see ``referrer(for:attribution:)``).
    ///
    /// - Throws: ``LinkBuilderError/invalidPackageName(_:)`` and what ``referrer(for:attribution:)`` throws.
    public func playStoreURL(
        package: String,
        link: DeepLink,
        attribution: [(field: LinkAttribution.Field, value: String)] = []
    ) throws(LinkBuilderError) -> String {
        guard AndroidPackageName.isValid(package) else { throw .invalidPackageName(package) }
        let referrer = try referrer(for: link, attribution: attribution)
        return "https://\(Self.playStoreHost)/store/apps/details?id=\(package)&referrer="
            + FormEncoding.encodeQueryValue(referrer)
    }

    /// The universal link `https://host` + `link`, which the installed app receives as is.
    ///
    /// - Throws: ``LinkBuilderError/notURLSafe(link:byte:)``, ``LinkBuilderError/hostNotAllowed(_:)``
    ///   or ``LinkBuilderError/roundTripFailed(link:found:)``.
    public func universalLink(host: String, link: DeepLink) throws(LinkBuilderError) -> String {
        try httpsURL(host: host, link: link)
    }

    /// The App Clip invocation URL on the app's own domain (an advanced App Clip experience): the
    /// same form as ``universalLink(host:link:)``.
    public func appClipURL(host: String, link: DeepLink) throws(LinkBuilderError) -> String {
        try httpsURL(host: host, link: link)
    }

    /// Apple's default App Clip link, `https://appclip.apple.com/id?p=<clipBundleID>` followed by
    /// `&query` when given; the validator reduces it to `/id?p=…`.
    ///
    /// - Throws: ``LinkBuilderError/invalidBundleID(_:)``,
    ///   ``LinkBuilderError/appClipDefaultLinksNotAccepted``, ``LinkBuilderError/notURLSafe(link:byte:)``
    ///   or a validator rejection.
    public func appClipDefaultURL(clipBundleID: String, query: String? = nil) throws(LinkBuilderError) -> String {
        guard AppleBundleID.isValid(clipBundleID) else { throw .invalidBundleID(clipBundleID) }
        guard validator.configuration.acceptsAppClipDefaultLinks else { throw .appClipDefaultLinksNotAccepted }
        let link = try canonicalLink("/id?p=\(clipBundleID)" + (query.map { "&" + $0 } ?? ""))
        return try httpsURL(host: LinkValidator.Configuration.appClipDefaultHost, link: link)
    }

    /// Play's store host.
    public static let playStoreHost = "play.google.com"

    private func httpsURL(host: String, link: DeepLink) throws(LinkBuilderError) -> String {
        let text = link.string
        if let byte = text.utf8.first(where: { !FormEncoding.isURLByte($0) }) {
            throw .notURLSafe(link: text, byte: byte)
        }
        let url = "https://\(host)" + text
        switch validator.validate(url) {
        case .failure(.foreignHost): throw .hostNotAllowed(host)
        case .failure(let reason): throw .rejected(link: url, reason: reason)
        case .success(let readBack):
            guard readBack == link else { throw .roundTripFailed(link: text, found: readBack.string) }
            return url
        }
    }

    private static func queryHasTagField(_ link: String) -> Bool {
        guard let query = link.split(separator: "?", maxSplits: 1).dropFirst().first else { return false }
        return query.split(separator: "&").contains {
            $0 == LinkSignature.tagField || $0.hasPrefix(LinkSignature.tagField + "=")
        }
    }
}
