/// What a ``PayloadAuthenticator`` found for one tag.
///
/// Thread safety: a value type; `Sendable`.
public enum PayloadAuthenticity: Sendable, Hashable {
    /// The tag is the key's tag of the message.
    case authentic
    /// The key is known and the tag is not its tag of the message.
    case forged
    /// No key has this id (never issued, or retired by rotation).
    case unknownKey
}
