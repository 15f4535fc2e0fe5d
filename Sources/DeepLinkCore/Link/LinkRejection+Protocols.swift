extension LinkRejection: CustomStringConvertible {
    public var description: String { name }
}
