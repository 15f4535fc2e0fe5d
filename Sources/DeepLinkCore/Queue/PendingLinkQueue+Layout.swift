extension PendingLinkQueue {
    /// Bytes one slot of the queue occupies: its sequence word and a ``PendingLink``, rounded up to
    /// whole 64-byte cache lines. A queue of capacity `c` holds `c × bytesPerSlot` bytes of slots
    /// plus two 128-byte position lines; capacity planning multiplies by this.
    package static var bytesPerSlot: Int { _Storage.slotStride }
}
