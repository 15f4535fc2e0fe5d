extension LinkBuilderError: CustomStringConvertible {
    public var description: String { message }
}
