extension ShardSpec: CustomStringConvertible {
    /// `i/n`, the form ``parse(_:)`` reads and the manifest records.
    package var description: String { "\(index)/\(count)" }
}
