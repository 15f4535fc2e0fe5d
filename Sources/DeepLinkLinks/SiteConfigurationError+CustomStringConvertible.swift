extension SiteConfigurationError: CustomStringConvertible {
    public var description: String { message }
}
