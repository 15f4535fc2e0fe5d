extension PendingLinkQueue {
    /// Empties the queue as a new one would be: positions back to 0, every slot free and zeroed,
    /// whatever state the slots were left in (the harness calls it after a journey that planted
    /// ``ConcurrencyFault/consumerReadsUnpublished``, which corrupts the slots' sequences).
    ///
    /// - Precondition: no other thread uses the queue.
    /// - Complexity: O(capacity); allocates nothing.
    package func _resetAsNew() {
        _storage.withUnsafeHandle { handle in
            handle.enqueuePosition.pointee.store(0, ordering: .relaxed)
            handle.dequeuePosition.pointee.store(0, ordering: .relaxed)
            for position in 0..<UInt(capacity) {
                let slot = handle.slot(for: position)
                // Plain bytes (no references), so overwriting a live record leaks nothing.
                UnsafeMutableRawPointer(slot.payload).initializeMemory(
                    as: UInt8.self,
                    repeating: 0,
                    count: MemoryLayout<PendingLink>.size
                )
                slot.sequence.pointee.store(_UnsafeHandle.sequence(freeFor: position), ordering: .releasing)
            }
        }
    }
}
