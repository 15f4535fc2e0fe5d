extension ReferrerParser {
    /// The verdict for `input`: decodes the payload exactly once and validates it with `validator`.
    ///
    /// - Complexity: O(n) in `input.count`; no heap allocation by the parser.
    public func verdict(for input: UnsafeRawBufferPointer, validator: LinkValidator) -> ReferrerVerdict {
        let result = withReferrer(in: input) { parsed in verdict(for: parsed, validator: validator) }
        switch result {
        case .success(let verdict): return verdict
        case .failure(let error): return .error(error)
        }
    }

    /// The verdict for the UTF-8 bytes of `input` (no copy for native strings).
    public func verdict(for input: String, validator: LinkValidator) -> ReferrerVerdict {
        var input = input
        return input.withUTF8 { verdict(for: UnsafeRawBufferPointer($0), validator: validator) }
    }

    /// The verdict for a referrer already lent by ``withReferrer(in:_:)``: the payload (if any),
    /// decoded once and validated, wins; otherwise Play's placeholder; otherwise no payload.
    public func verdict(for parsed: ParsedReferrer, validator: LinkValidator) -> ReferrerVerdict {
        var link = DeepLink._root
        switch verdict(for: parsed, validator: validator, into: &link) {
        case .link: return .link(link)
        case .organic: return .organic
        case .notSet: return .notSet
        case .noPayload: return .noPayload
        case .rejected(let rejection): return .rejected(rejection)
        case .error(let error): return .error(error)
        }
    }

    /// ``verdict(for:validator:)-(UnsafeRawBufferPointer,_)`` writing a validated link into `link`,
    /// in place (left unchanged for every other outcome): no ~512-byte link travels back through
    /// the verdict.
    ///
    /// - Complexity: O(n) in `input.count`; no heap allocation by the parser.
    public func verdict(
        for input: UnsafeRawBufferPointer,
        validator: LinkValidator,
        into link: inout DeepLink
    ) -> ReferrerOutcome {
        switch withReferrer(in: input, { verdict(for: $0, validator: validator, into: &link) }) {
        case .success(let outcome): return outcome
        case .failure(let error): return .error(error)
        }
    }

    /// ``verdict(for:validator:)-(ParsedReferrer,_)`` for a lent referrer, writing a validated link into `link`.
    @inline(__always)  // the parse path: a call here costs a copy and retain of the lent referrer
    public func verdict(
        for parsed: ParsedReferrer,
        validator: LinkValidator,
        into link: inout DeepLink
    ) -> ReferrerOutcome {
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
    ) -> ReferrerOutcome {
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
