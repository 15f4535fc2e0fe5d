extension FormDecoding {
    /// The decoded bytes of one raw name or value, produced one at a time.
    ///
    /// Thread safety: a value type over borrowed bytes; use it only while those bytes are alive.
    @usableFromInline
    package struct DecodedBytes: Sequence, IteratorProtocol {
        @usableFromInline
        internal let _raw: UnsafeRawBufferPointer

        @usableFromInline
        internal var _index: Int

        /// Decodes `raw`, which must stay valid while this value is used.
        @inlinable
        package init(_ raw: UnsafeRawBufferPointer) {
            self._raw = raw
            self._index = 0
        }

        /// The next decoded byte, or `nil` at the end.
        ///
        /// - Complexity: O(1).
        @inlinable
        package mutating func next() -> UInt8? {
            let count = _raw.count
            guard _index < count else { return nil }
            let byte = _raw[_index]
            switch byte {
            case UInt8(ascii: "+"):
                _index += 1
                return UInt8(ascii: " ")
            case UInt8(ascii: "%"):
                if _index + 2 < count {
                    let high = Hex.digitValue(_raw[_index + 1])
                    let low = Hex.digitValue(_raw[_index + 2])
                    if high | low < 16 {
                        _index += 3
                        return high &<< 4 | low
                    }
                }
                _index += 1
                return byte
            default:
                _index += 1
                return byte
            }
        }
    }
}
