#if canImport(CJemalloc)
import CJemalloc
#endif

/// The calling thread's jemalloc allocation counter, read through the pointer jemalloc hands out
/// for it (`thread.allocatedp`): one load per read, where ``AllocationCounter/threadAllocatedBytes()``
/// makes a `mallctlbymib` call (about 200 instructions, measured with callgrind). The runner reads
/// it around every journey, so the difference is a tenth of the harness's own cost.
///
/// Reads the same counter as ``AllocationCounter``; 0 throughout without jemalloc (sanitizer
/// builds).
///
/// Thread safety: make one on the thread that reads it, and read it only there (the pointer is
/// that thread's).
struct ThreadAllocationCounter {
    private let counter: UnsafePointer<UInt64>?

    /// The counter of the calling thread.
    init() {
        #if canImport(CJemalloc)
        var pointer: UnsafeMutablePointer<UInt64>?
        var size = MemoryLayout<UnsafeMutablePointer<UInt64>?>.size
        counter = mallctl("thread.allocatedp", &pointer, &size, nil, 0) == 0 ? UnsafePointer(pointer) : nil
        #else
        counter = nil
        #endif
    }

    /// Bytes the thread allocated so far.
    @inline(__always)
    var bytes: UInt64 { counter?.pointee ?? 0 }
}
