#if canImport(CJemalloc)
import CJemalloc
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Reads jemalloc's per-thread allocation counters, so that tests and benchmarks can count the
/// bytes an operation allocates exactly (not estimate them).
///
/// Counters are per thread: measure on the thread that does the work. They count only when
/// jemalloc is the process allocator (the harness, the benchmarks and the test binary link it);
/// ``isJemallocActive`` tells whether it is (it is not under the address or thread sanitizers,
/// whose runtimes bring their own allocator).
///
/// Thread safety: all members may be called from any thread; each reads the caller's own counter.
public enum AllocationCounter {
    /// Total bytes allocated so far by the calling thread (jemalloc `thread.allocated`).
    ///
    /// Reads through a management-information-base id looked up once: passing the name as a Swift
    /// string on every call would itself allocate (the C-string bridge) and pollute the count.
    ///
    /// - Complexity: O(1); one `mallctlbymib` call, which does not allocate.
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
    /// The MIB of `thread.allocated`, or nil when jemalloc does not know the name.
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

    /// jemalloc's version string (`mallctl("version")`), or `nil` when jemalloc is not linked.
    public static var jemallocVersion: String? {
        #if canImport(CJemalloc)
        var pointer: UnsafePointer<CChar>?
        var size = MemoryLayout<UnsafePointer<CChar>?>.size
        guard mallctl("version", &pointer, &size, nil, 0) == 0, let pointer else { return nil }
        return String(cString: pointer)
        #else
        return nil
        #endif
    }

    /// Whether allocations of this process are served (and counted) by jemalloc: a probe
    /// allocation must move the calling thread's counter.
    ///
    /// The probe goes through the Swift runtime's allocator entry point: the optimiser removes a
    /// `malloc` whose pointer is only freed, which made release builds report "system".
    public static var isJemallocActive: Bool {
        let before = threadAllocatedBytes()
        let pointer = UnsafeMutableRawPointer.allocate(byteCount: 4096, alignment: 16)
        let after = threadAllocatedBytes()
        pointer.deallocate()
        return after &- before >= 4096
    }
}
