extension ReferrerParser {
    /// The verdict for `input`: decodes the payload exactly once, validates it with `validator` and
    /// writes a validated link into `link`, in place (left unchanged for every other verdict): no
    /// ~512-byte link travels back through the verdict.
    ///
    /// - Complexity: O(n) in `input.count`; no heap allocation by the parser.
    public func verdict(
        for input: UnsafeRawBufferPointer,
        validator: LinkValidator,
        into link: inout DeepLink
    ) -> ReferrerVerdict {
        switch withReferrer(in: input, { verdict(for: $0, validator: validator, into: &link) }) {
        case .success(let verdict): return verdict
        case .failure(let error): return .error(error)
        }
    }

    /// ``verdict(for:validator:into:)-(UnsafeRawBufferPointer,_,_)`` of the UTF-8 bytes of `input`
    /// (no copy for native strings).
    public func verdict(for input: String, validator: LinkValidator, into link: inout DeepLink) -> ReferrerVerdict {
        var input = input
        return input.withUTF8 { verdict(for: UnsafeRawBufferPointer($0), validator: validator, into: &link) }
    }

    /// The verdict for a referrer already lent by ``withReferrer(in:_:)``: the payload (if any),
    /// decoded once and validated into `link`, wins; otherwise Play's placeholder; otherwise no
    /// payload.
    @inline(__always)  // the parse path: a call here costs a copy and retain of the lent referrer
    package func verdict(
        for parsed: ParsedReferrer,
        validator: LinkValidator,
        into link: inout DeepLink
    ) -> ReferrerVerdict {
        _verdict(for: parsed, validator: validator, into: &link) { parsed.placeholder }
    }

    /// ``verdict(for:validator:into:)-(ParsedReferrer,_,_)`` with the placeholder read by
    /// `placeholder`, only when there is no payload (a caller that has the fields at hand passes them).
    @inline(__always)
    internal func _verdict(
        for parsed: ParsedReferrer,
        validator: LinkValidator,
        into link: inout DeepLink,
        placeholder: () -> PlayPlaceholder?
    ) -> ReferrerVerdict {
        guard let payload = parsed.payload else {
            switch placeholder() {
            case .organic: return .organic
            case .notSet: return .notSet
            case nil: return .noPayload
            }
        }
        return payload.withDecodedValue { decoded in
            if let rejection = validator.validate(decoded, into: &link) { return .rejected(rejection) }
            return .link
        }
    }
}
