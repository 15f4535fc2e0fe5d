extension AccountID.ValidationError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .empty:
            "an account id must not be empty"
        case .tooLong(let count):
            "an account id has at most \(AccountID.capacity) bytes, this one has \(count)"
        case .invalidByte(let byte, let offset):
            "byte 0x\(String(byte, radix: 16, uppercase: true)) at offset \(offset) is not allowed in an account id "
                + "(use A-Z a-z 0-9 - . _ ~ @ + :)"
        }
    }
}
