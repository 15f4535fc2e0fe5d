/// Scratch space for decoding, on the stack.
///
/// Up to ``_smallScratchCapacity`` bytes come from `withUnsafeTemporaryAllocation`, which the
/// compiler places on the stack for sizes this small without initialising them (the common case: a
/// payload or a name). Larger requests, up to ``ReferrerParser/Configuration/inputBytesCeiling``,
/// use a fixed-size `InlineArray` (also on the stack, zero-filled first). Only a request above the
/// ceiling, which the parser's limits rule out, would fall back to the heap rather than trap.
@usableFromInline
internal let _smallScratchCapacity = 1024

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
    if capacity <= ReferrerParser.Configuration.inputBytesCeiling {
        var storage = InlineArray<8192, UInt8>(repeating: 0)
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
