#if canImport(CJemalloc)
import CJemalloc
#endif

/// Bytes allocated by the calling thread, read from jemalloc's per-thread `thread.allocated`
/// counter: the core's allocation tests count bytes exactly, without the harness.
///
/// The counter moves only when jemalloc is the process allocator (the test binary links it, except
/// under the sanitizers, whose runtimes bring their own allocator); ``isJemallocActive`` tells.
///
/// Thread safety: every member may be called from any thread; each reads the caller's own counter.
public enum AllocationCounter {
    /// Total bytes allocated so far by the calling thread; 0 without jemalloc.
    ///
    /// Reads through a management-information-base id looked up once: passing the name as a Swift
    /// string on every call would itself allocate (the C-string bridge) and pollute the count.
    @inline(never)
    public static func threadAllocatedBytes() -> UInt64 {
        #if canImport(CJemalloc)
        guard let mib = threadAllocatedMIB else { return 0 }
        var value: UInt64 = 0
        var size = MemoryLayout<UInt64>.size
        let status = mib.withUnsafeBufferPointer { mallctlbymib($0.baseAddress, $0.count, &value, &size, nil, 0) }
        return status == 0 ? value : 0
        #else
        return 0
        #endif
    }

    #if canImport(CJemalloc)
    private static let threadAllocatedMIB: [Int]? = {
        var mib = [Int](repeating: 0, count: 4)
        var length = mib.count
        guard mallctlnametomib("thread.allocated", &mib, &length) == 0 else { return nil }
        return Array(mib[0..<length])
    }()
    #endif

    /// Bytes allocated by the calling thread while `body` runs.
    @inlinable
    public static func bytesAllocated<E: Error>(_ body: () throws(E) -> Void) throws(E) -> UInt64 {
        let before = threadAllocatedBytes()
        try body()
        return threadAllocatedBytes() &- before
    }

    /// Whether a probe allocation through the Swift runtime moves the calling thread's counter.
    public static var isJemallocActive: Bool {
        let before = threadAllocatedBytes()
        let pointer = UnsafeMutableRawPointer.allocate(byteCount: 4096, alignment: 16)
        let after = threadAllocatedBytes()
        pointer.deallocate()
        return after &- before >= 4096
    }
}
