extension ReferrerParser {
    /// Reads a referrer into a capture record, in place: its link into `pending.link` (decoded once
    /// and validated), its campaign into `pending.attribution` and, when `accountKey` names a
    /// field, the account that field names into `pending.account` (`nil` otherwise). The record's
    /// other fields (source, times, id) are the caller's.
    ///
    /// A link whose account field is present but not an ``AccountID`` is refused as
    /// ``LinkRejection/invalidAccount``: it fails closed, never routing for anyone.
    ///
    /// This is the one place a referrer becomes a ``PendingLink``:
    /// ``LinkResolver/captureReferrer(_:parser:validator:capturedAtNanos:id:installBeginTimestamp:clickTimestampSeconds:)``
    /// calls it, and so can an app that fills its records itself.
    ///
    /// - Complexity: O(n) in the referrer's length; no heap allocation.
    @inline(__always)
    public func read(
        _ referrer: UnsafeRawBufferPointer,
        validator: LinkValidator,
        accountKey: String?,
        into pending: inout PendingLink
    ) -> ReferrerOutcome {
        pending.account = nil
        let parsed = withReferrer(in: referrer) { parsed -> ReferrerOutcome in
            pending.attribution.assign(from: parsed)
            let outcome = verdict(for: parsed, validator: validator, into: &pending.link)
            guard case .link = outcome, let accountKey, let field = parsed.effectiveFields.first(named: accountKey)
            else { return outcome }
            return field.withDecodedValue { value in
                do throws(AccountIDError) {
                    pending.account = try AccountID(validating: value)
                    return .link
                } catch {
                    return .rejected(.invalidAccount)
                }
            }
        }
        switch parsed {
        case .success(let outcome): return outcome
        case .failure(let error): return .error(error)
        }
    }
}
