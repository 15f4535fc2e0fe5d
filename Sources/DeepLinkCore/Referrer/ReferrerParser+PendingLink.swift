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
    package func read(
        _ referrer: UnsafeRawBufferPointer,
        validator: LinkValidator,
        accountKey: String?,
        into pending: inout PendingLink
    ) -> ReferrerVerdict {
        pending.account = nil
        guard var accountKey else { return _read(referrer, validator: validator, accountKey: nil, into: &pending) }
        // Native strings lend their bytes without a copy.
        return accountKey.withUTF8 { key in _read(referrer, validator: validator, accountKey: key, into: &pending) }
    }

    /// ``read(_:validator:accountKey:into:)`` with the account key as UTF-8: one pass over the
    /// fields finds the attribution fields, Play's placeholder fields and the account field.
    @inline(__always)
    internal func _read(
        _ referrer: UnsafeRawBufferPointer,
        validator: LinkValidator,
        accountKey: UnsafeBufferPointer<UInt8>?,
        into pending: inout PendingLink
    ) -> ReferrerVerdict {
        let parsed = withReferrer(in: referrer) { parsed -> ReferrerVerdict in
            let fields = parsed.effectiveFields._attributionScan(extraKey: accountKey)
            pending.attribution._assign(fields)
            let outcome = _verdict(for: parsed, validator: validator, into: &pending.link) { fields.placeholder }
            guard case .link = outcome, accountKey != nil, let account = fields.value(_AttributionScan.extraSlot)
            else { return outcome }
            return ReferrerField._withDecoded(account) { value in
                do throws(AccountID.ValidationError) {
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
