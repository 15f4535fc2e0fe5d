extension ShardSpec: CustomStringConvertible {
    /// `i/n`, the form ``parse(_:)`` reads and the manifest records.
    public var description: String { "\(index)/\(count)" }
}
