extension SigningKeyError: CustomStringConvertible {
    public var description: String { message }
}
