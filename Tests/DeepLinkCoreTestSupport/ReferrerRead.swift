public import DeepLinkCore

/// A referrer's verdict with the link it wrote (`nil` unless the verdict is `link`): what tests and
/// fuzzers compare in one value, where the core's verdict writes its link in place.
///
/// Thread safety: a value type; `Sendable`.
public struct ReferrerRead: Sendable, Equatable, CustomStringConvertible {
    public var verdict: ReferrerVerdict
    public var link: DeepLink?

    public init(verdict: ReferrerVerdict, link: DeepLink? = nil) {
        self.verdict = verdict
        self.link = link
    }

    public static let organic = ReferrerRead(verdict: .organic)
    public static let notSet = ReferrerRead(verdict: .notSet)
    public static let noPayload = ReferrerRead(verdict: .noPayload)
    public static func rejected(_ rejection: LinkRejection) -> ReferrerRead {
        ReferrerRead(verdict: .rejected(rejection))
    }
    public static func error(_ error: ReferrerError) -> ReferrerRead { ReferrerRead(verdict: .error(error)) }
    public static func link(_ link: DeepLink) -> ReferrerRead { ReferrerRead(verdict: .link, link: link) }

    public var name: String { verdict.name }
    public var reason: String? { verdict.reason }
    public var description: String { link.map { "link \($0.string)" } ?? "\(verdict)" }

    /// The read of `verdict`, whose link (if any) `body` wrote into its argument.
    static func reading(_ body: (inout DeepLink) -> ReferrerVerdict) -> ReferrerRead {
        var link = DeepLink(validated: "/")!
        let verdict = body(&link)
        guard case .link = verdict else { return ReferrerRead(verdict: verdict) }
        return ReferrerRead(verdict: verdict, link: link)
    }
}

extension ReferrerParser {
    /// ``verdict(for:validator:into:)`` of `input`, with the link it wrote.
    public func verdictRead(_ input: UnsafeRawBufferPointer, validator: LinkValidator) -> ReferrerRead {
        ReferrerRead.reading { verdict(for: input, validator: validator, into: &$0) }
    }

    /// ``verdict(for:validator:into:)`` of `input`'s UTF-8 bytes, with the link it wrote.
    public func verdictRead(_ input: String, validator: LinkValidator) -> ReferrerRead {
        ReferrerRead.reading { verdict(for: input, validator: validator, into: &$0) }
    }

    /// The verdict of a referrer lent by `withReferrer(in:_:)`, with the link it wrote.
    package func verdictRead(_ parsed: ParsedReferrer, validator: LinkValidator) -> ReferrerRead {
        ReferrerRead.reading { verdict(for: parsed, validator: validator, into: &$0) }
    }
}
