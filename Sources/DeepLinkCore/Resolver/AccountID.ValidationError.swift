extension AccountID {
    /// Why a string is not an ``AccountID``.
    ///
    /// Thread safety: a value type; `Sendable`.
    public enum ValidationError: Error, Sendable, Hashable {
        /// No bytes.
        case empty
        /// `count` bytes, more than ``AccountID/capacity``.
        case tooLong(count: Int)
        /// `byte`, at `offset`, is outside the id alphabet (`A–Z a–z 0–9 - . _ ~ @ + :`).
        case invalidByte(UInt8, offset: Int)
    }
}
