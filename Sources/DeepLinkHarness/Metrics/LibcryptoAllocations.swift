import CLibcryptoAllocations

/// What OpenSSL's libcrypto allocated, counted apart (CLibcryptoAllocations hooks its memory
/// functions when the process loads). CoreBenchmarks and summary.csv report those bytes in columns
/// of their own. They are 0 on the signing path (``HMACSHA256Authenticator``'s HMAC copies its
/// digest contexts in place; OpenSSL 3.0's provider HMAC duplicates two per tag), and these
/// columns are what would show it if a change or another OpenSSL brought that back.
///
/// Thread safety: any thread; each reads its own count (like jemalloc's `thread.allocated`).
package enum LibcryptoAllocations {
    /// Whether the hooks were installed (OpenSSL refuses them once it has allocated).
    package static var areCounted: Bool { deeplink_libcrypto_allocations_counted() }

    /// Bytes libcrypto allocated so far on the calling thread (usable sizes, as jemalloc counts
    /// them).
    @inline(__always)
    package static var bytes: UInt64 { deeplink_libcrypto_allocated_bytes() }
}
