/// Scratch space for decoding, on the stack.
///
/// Up to ``_smallScratchCapacity`` bytes come from `withUnsafeTemporaryAllocation`, which the
/// compiler places on the stack for sizes this small without initialising them (the common case: a
/// payload or a name). Larger requests, up to ``ReferrerParser/Configuration/inputBytesCeiling``,
/// use a fixed-size `InlineArray` (also on the stack, zero-filled first), with room for
/// ``FormDecoding/blockSlack`` bytes more so that a decode of the largest input stays fast. Only a
/// request above that, which the parser's limits rule out, would fall back to the heap rather than
/// trap.
@usableFromInline
internal let _smallScratchCapacity = 1024

/// The `InlineArray`'s size below: the input ceiling and the decoder's slack.
@usableFromInline
internal let _largeScratchCapacity = ReferrerParser.Configuration.inputBytesCeiling + FormDecoding.blockSlack

@usableFromInline
internal func _withScratchBytes<R, E: Error>(
    capacity: Int,
    _ body: (UnsafeMutableRawBufferPointer) throws(E) -> R
) throws(E) -> R {
    if capacity <= _smallScratchCapacity {
        return try withUnsafeTemporaryAllocation(byteCount: max(capacity, 1), alignment: 1) {
            (buffer: UnsafeMutableRawBufferPointer) throws(E) -> R in
            try body(UnsafeMutableRawBufferPointer(rebasing: buffer[0..<capacity]))
        }
    }
    if capacity <= _largeScratchCapacity {
        var storage = InlineArray<8208, UInt8>(repeating: 0)
        assert(storage.count == _largeScratchCapacity, "the scratch's size is the ceiling and the slack")
        var span = storage.mutableSpan
        return try span.withUnsafeMutableBytes { (buffer: UnsafeMutableRawBufferPointer) throws(E) -> R in
            try body(UnsafeMutableRawBufferPointer(rebasing: buffer[0..<capacity]))
        }
    }
    var heap = [UInt8](repeating: 0, count: capacity)
    var heapSpan = heap.mutableSpan
    return try heapSpan.withUnsafeMutableBytes { (buffer: UnsafeMutableRawBufferPointer) throws(E) -> R in
        try body(buffer)
    }
}
