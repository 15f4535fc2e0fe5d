extension ReferrerError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .inputTooLong(let length, let limit): "inputTooLong (\(length) bytes, limit \(limit))"
        case .tooManyFields(let count, let limit): "tooManyFields (\(count) fields, limit \(limit))"
        case .duplicatePayloadKey(let count):
            "duplicatePayloadKey (the payload key names \(count) fields; send the link in exactly one)"
        }
    }
}
