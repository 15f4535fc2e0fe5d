#if canImport(Glibc)
import Glibc
#endif

/// Which sanitizer this process runs under, as declared by `DEEPLINK_SANITIZER` (set by `.ci/run`
/// for `swift test --sanitize=…` runs: `address` or `thread`). Allocation-count assertions need
/// jemalloc as the allocator and the sanitizers replace it, so those assertions are skipped only
/// when this is set.
public enum Sanitizer {
    /// Any sanitizer.
    public static var isActive: Bool { declared.map { !$0.isEmpty } ?? false }

    /// The AddressSanitizer run.
    public static var isAddress: Bool { declared == "address" }

    /// The ThreadSanitizer run.
    public static var isThread: Bool { declared == "thread" }

    private static var declared: String? {
        guard let value = getenv("DEEPLINK_SANITIZER") else { return nil }
        return String(cString: value)
    }
}
