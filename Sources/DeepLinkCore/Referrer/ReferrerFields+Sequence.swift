extension ReferrerFields: Sequence {
    /// Walks the bytes once, yielding each non-empty `&`-separated piece as a field.
    ///
    /// Thread safety: not `Sendable`; see ``ReferrerFields``.
    @usableFromInline
    package struct Iterator: IteratorProtocol {
        @usableFromInline
        internal let _bytes: UnsafeRawBufferPointer

        @usableFromInline
        internal var _position: Int

        @inlinable
        internal init(_ bytes: UnsafeRawBufferPointer) {
            self._bytes = bytes
            self._position = 0
        }

        /// The next field, or `nil` at the end.
        ///
        /// - Complexity: O(k) in the bytes up to the end of the returned field.
        @inlinable
        package mutating func next() -> ReferrerField? {
            let count = _bytes.count
            while _position < count {
                let start = _position
                var separator = -1
                var end = start
                while end < count {
                    let byte = _bytes[end]
                    if byte == UInt8(ascii: "&") { break }
                    if byte == UInt8(ascii: "="), separator < 0 { separator = end }
                    end += 1
                }
                _position = end + 1
                guard end > start else { continue }  // an empty piece (`&&`, leading or trailing `&`)
                if separator < 0 {
                    let name = UnsafeRawBufferPointer(rebasing: _bytes[start..<end])
                    return ReferrerField(
                        rawName: name,
                        rawValue: UnsafeRawBufferPointer(rebasing: _bytes[end..<end]),
                        hasSeparator: false
                    )
                }
                return ReferrerField(
                    rawName: UnsafeRawBufferPointer(rebasing: _bytes[start..<separator]),
                    rawValue: UnsafeRawBufferPointer(rebasing: _bytes[(separator + 1)..<end]),
                    hasSeparator: true
                )
            }
            return nil
        }
    }

    @inlinable
    package func makeIterator() -> Iterator { Iterator(bytes) }

    @inlinable
    package var underestimatedCount: Int { 0 }
}
