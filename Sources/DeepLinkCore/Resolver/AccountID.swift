/// The account a link is meant for, and the account that logged in: the app's own user id, an
/// opaque token of 1…``capacity`` bytes from `A–Z a–z 0–9 - . _ ~ @ + :`, kept inline so that a
/// ``PendingLink`` stays a record without references.
///
/// A link bound to an account (``PendingLink/account``; an invite shared with one user, a
/// password reset) routes only after ``AppEvent/loggedInAs(_:)`` names that same account. Any other
/// login leaves it pending and is reported as ``ResolverDecision/heldForAccount(_:)``; a plain
/// ``AppEvent/loggedIn``, which names nobody, opens no bound link.
///
/// The alphabet is narrow on purpose: ids compare byte for byte, so two spellings of one user
/// (Unicode normalisation forms, case, invisible characters) must not both be valid. An app whose
/// ids are wider (emails with Unicode, for instance) binds a stable ASCII key of its own instead.
///
/// ```swift
/// let alice = try AccountID(validating: "u-1842")
/// resolver.signal(.loggedInAs(alice))
/// ```
///
/// Thread safety: a value type with no references; `Sendable`.
public struct AccountID: Sendable {
    /// The longest id, in bytes.
    public static let capacity = 64

    @usableFromInline
    internal var _bytes: InlineArray<64, UInt8>

    @usableFromInline
    internal var _count: UInt8

    /// Validates `bytes` as an account id.
    ///
    /// - Throws: ``AccountID/ValidationError/empty``, ``AccountID/ValidationError/tooLong(count:)`` or
    ///   ``AccountID/ValidationError/invalidByte(_:offset:)`` (the first byte outside the alphabet).
    /// - Complexity: O(n); no allocation.
    public init(validating bytes: UnsafeRawBufferPointer) throws(AccountID.ValidationError) {
        guard !bytes.isEmpty else { throw .empty }
        guard bytes.count <= Self.capacity else { throw .tooLong(count: bytes.count) }
        for (offset, byte) in bytes.enumerated() where !Self.isAllowed(byte) {
            throw .invalidByte(byte, offset: offset)
        }
        _bytes = InlineArray(repeating: 0)
        _count = UInt8(bytes.count)
        var span = _bytes.mutableSpan
        span.withUnsafeMutableBytes { destination in
            for index in 0..<bytes.count { destination[index] = bytes[index] }
        }
    }

    /// Validates the UTF-8 of `string` as an account id (see ``init(validating:)-(UnsafeRawBufferPointer)``).
    public init(validating string: String) throws(AccountID.ValidationError) {
        var copy = string
        let result = copy.withUTF8 { utf8 -> Result<AccountID, AccountID.ValidationError> in
            do throws(AccountID.ValidationError) {
                return .success(try AccountID(validating: UnsafeRawBufferPointer(utf8)))
            } catch {
                return .failure(error)
            }
        }
        self = try result.get()
    }

    /// The id's length in bytes.
    public var utf8Count: Int { Int(_count) }

    /// Calls `body` with the id's bytes, valid only inside `body`.
    @inlinable
    public func withUTF8Bytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        let count = Int(_count)
        return try _bytes.span.withUnsafeBytes { (all: UnsafeRawBufferPointer) throws(E) -> R in
            try body(UnsafeRawBufferPointer(rebasing: all[0..<count]))
        }
    }

    /// The id as a `String` (allocates; for reports and logs).
    public var string: String { withUTF8Bytes { String(decoding: $0, as: UTF8.self) } }

    /// Whether `byte` may appear in an id: ASCII letters, digits and `- . _ ~ @ + :`.
    static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "@"),
            UInt8(ascii: "+"), UInt8(ascii: ":"):
            true
        default:
            false
        }
    }
}
