public import DeepLinkCore

/// Why the link builder refused to make a link; ``message`` says what was found and what to do.
///
/// Thread safety: a value type; `Sendable`.
public enum LinkBuilderError: Error, Sendable, Hashable {
    /// The validator rejects the link.
    case rejected(link: String, reason: LinkRejection)
    /// The validator accepts the link but makes another canonical link of it (a fragment, an
    /// `https://host` prefix, …): give the canonical form.
    case notCanonical(link: String, canonical: String)
    /// A URL form (App Clip, universal link) needs a link of URL characters only; `byte` is not one.
    case notURLSafe(link: String, byte: UInt8)
    /// The referrer would exceed the parser's ``ReferrerParser/Configuration/maxInputBytes``.
    case referrerTooLong(length: Int, limit: Int)
    /// The referrer would exceed the parser's ``ReferrerParser/Configuration/maxFields``.
    case tooManyFields(count: Int, limit: Int)
    /// An Android package name that breaks the rules of ``AndroidPackageName``.
    case invalidPackageName(String)
    /// An Apple bundle id that breaks the rules of ``AppleBundleID``.
    case invalidBundleID(String)
    /// The validator does not accept the host (it is not on its allowed hosts).
    case hostNotAllowed(String)
    /// The validator does not accept Apple's default App Clip links
    /// (``LinkValidator/Configuration/acceptsAppClipDefaultLinks``).
    case appClipDefaultLinksNotAccepted
    /// An expiry with more than ``LinkSignature/maxExpiryDigits`` digits.
    case expiryOutOfRange(UInt64)
    /// The signed link no longer fits ``DeepLink/capacity`` (the signature adds about 110 bytes).
    case signedLinkTooLong(length: Int, limit: Int)
    /// The link is already signed (its query has a `dl_sig` field).
    case alreadySigned(String)
    /// The parser does not read back what the builder wrote (a defect; please report it).
    case roundTripFailed(link: String, found: String)

    /// The error's stable name (`rejected`, `notCanonical`, …).
    public var name: String {
        switch self {
        case .rejected: "rejected"
        case .notCanonical: "notCanonical"
        case .notURLSafe: "notURLSafe"
        case .referrerTooLong: "referrerTooLong"
        case .tooManyFields: "tooManyFields"
        case .invalidPackageName: "invalidPackageName"
        case .invalidBundleID: "invalidBundleID"
        case .hostNotAllowed: "hostNotAllowed"
        case .appClipDefaultLinksNotAccepted: "appClipDefaultLinksNotAccepted"
        case .expiryOutOfRange: "expiryOutOfRange"
        case .signedLinkTooLong: "signedLinkTooLong"
        case .alreadySigned: "alreadySigned"
        case .roundTripFailed: "roundTripFailed"
        }
    }

    /// One line: what was wrong and what to do.
    public var message: String {
        switch self {
        case .rejected(let link, let reason):
            "the validator rejects '\(link)' (\(reason.name)); give an app path such as /product/42"
        case .notCanonical(let link, let canonical):
            "'\(link)' is accepted as '\(canonical)'; give the canonical link '\(canonical)'"
        case .notURLSafe(let link, let byte):
            "'\(link)' holds byte 0x\(String(byte, radix: 16)), which a URL cannot carry raw; percent-encode it"
        case .referrerTooLong(let length, let limit):
            "the referrer would be \(length) bytes, over the parser's limit of \(limit); shorten the link or the utm fields"
        case .tooManyFields(let count, let limit):
            "the referrer would have \(count) fields, over the parser's limit of \(limit); drop some utm fields"
        case .invalidPackageName(let name):
            "invalid Android package name '\(name)': " + AndroidPackageName.rule
        case .invalidBundleID(let id): "invalid Apple bundle id '\(id)': " + AppleBundleID.rule
        case .hostNotAllowed(let host):
            "the validator does not accept host '\(host)'; add it to the allowed hosts or use one of them"
        case .appClipDefaultLinksNotAccepted:
            "the validator does not accept appclip.apple.com links; enable acceptsAppClipDefaultLinks"
        case .expiryOutOfRange(let seconds):
            "expiry \(seconds) has more than \(LinkSignature.maxExpiryDigits) digits; give Unix seconds"
        case .signedLinkTooLong(let length, let limit):
            "the signed link would be \(length) bytes, over \(limit); shorten the link or its query"
        case .alreadySigned(let link): "'\(link)' already carries a dl_sig field; give the unsigned link"
        case .roundTripFailed(let link, let found):
            "the parser reads '\(found)' back for '\(link)'; this is a defect in the builder, please report it"
        }
    }
}
